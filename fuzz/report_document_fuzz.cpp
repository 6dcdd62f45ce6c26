// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer harness: a saved JSON summary (`report --format json > baseline.json`) read back as
// runs, as `gate --baseline` and `compare --baseline` do, then compared and gated against each
// other. A document is either read or refused with core::InputError naming the file; the gate
// either judges or refuses (core::Error, exit 2); nothing else may escape, and no sanitizer may
// report.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "ppsbench/analysis/comparison.hpp"
#include "ppsbench/analysis/gate.hpp"
#include "ppsbench/analysis/report_document.hpp"
#include "ppsbench/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ppsbench::analysis;
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<RunAnalysis> runs;
    try {
        runs = read_report_document(in, "baseline.json");
    } catch (const ppsbench::core::InputError&) {
        return 0;
    }
    if (runs.empty()) {
        return 0;
    }
    try {
        (void)compare(runs.front(), runs, all_metrics(), 0.95);
    } catch (const ppsbench::core::Error&) {
    }
    GateLimits limits;
    limits.max_ratio = 1.25;
    for (const char* limit : {"sigma=5us", "p2p=50us", "missed=10", "p99=10us"}) {
        limits.maxima.push_back(parse_metric_limit(limit, "--max"));
    }
    for (const auto& run : runs) {
        try {
            (void)evaluate_gate(&runs.front(), run, limits);
        } catch (const ppsbench::core::Error&) {
        }
    }
    Report report;
    report.runs = runs;
    (void)report_document(report).dump();
    return 0;
}
