// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer harness: the capture-file parser, its chrony notes, then the analysis of whatever it
// accepted. A capture is either read (and analysed without a crash) or refused with
// core::InputError naming FILE:LINE; nothing else may escape, and no sanitizer may report.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>
#include <vector>

#include "ppsbench/chrony/json.hpp"
#include "ppsbench/chrony/summary.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/packed_pulses.hpp"
#include "ppsbench/stats/analyze.hpp"
#include "ppsbench/store/capture_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const auto file = ppsbench::store::parse_capture_text(text, "fuzz.csv");
        // The chrony samples noted during the run, as report reads them (one it cannot read is
        // left out with a warning, so any exception is tolerated here, but no sanitizer report).
        std::vector<ppsbench::chrony::ChronySample> samples;
        for (const auto& note : file.notes) {
            try {
                if (note.tag == "chrony") {
                    samples.push_back(note.body.get<ppsbench::chrony::ChronySample>());
                }
            } catch (const std::exception&) {
            }
        }
        if (!samples.empty()) {
            (void)ppsbench::chrony::summarize(samples);
        }
        // The packed pulses the analysis reads (sequence numbers as runs, or per pulse) give
        // back exactly what was parsed, whatever the numbers.
        const ppsbench::core::PackedPulses packed(file.pulses);
        if (packed.unpack() != file.pulses) {
            __builtin_trap();
        }
        ppsbench::stats::AnalysisOptions options;
        options.compute_stability = file.pulses.size() < 4096;  // keep each run fast
        (void)ppsbench::stats::analyze(file.pulses, options);
    } catch (const ppsbench::core::Error&) {
    }
    return 0;
}
