#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ppsbench/report/table.hpp"
#include "ppsbench/stats/summary.hpp"
#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::report {

// The figures one run contributes to a report, computed by the library from a capture file.
struct RunSummary {
    std::string label;
    std::string file;
    bool simulated = false;
    std::string clock;  // "realtime" or "monotonic"
    std::int64_t period_ns = 0;
    std::uint64_t pulses = 0;
    std::optional<std::uint64_t> missed_pulses;  // absent when the file cannot tell
    stats::Summary offset_ns;                    // phase offset from the top of the period
    std::vector<std::string> warnings;
};

// `period_override_ns` (from --period) replaces the period recorded in the file.
RunSummary summarize_run(const store::CaptureFile& file,
                         std::optional<std::int64_t> period_override_ns = std::nullopt);

// The plain per-run table of `ppsbench report` and `ppsbench demo`.

Table run_table(const std::vector<RunSummary>& runs);

}  // namespace ppsbench::report
