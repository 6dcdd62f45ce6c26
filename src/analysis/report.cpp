// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/report.hpp"

#include "ppsbench/analysis/latency_runs.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::analysis {

Report load_report(const std::vector<std::string>& paths, const AnalysisSettings& settings) {
    Report report;
    for (const auto& path : paths) {
        for (auto& run : load_runs(path, settings)) {
            report.runs.push_back(std::move(run));
        }
    }
    for (const auto& run : report.runs) {
        if (run.meta && run.meta->latency) {
            report.latency.push_back(summarize_latency(store::read_capture_file(run.file)));
        }
    }
    return report;
}

}  // namespace ppsbench::analysis
