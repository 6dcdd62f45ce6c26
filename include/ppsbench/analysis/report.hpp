// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>
#include <vector>

#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/latency/latency_summary.hpp"

namespace ppsbench::analysis {

// What `report` shows: every run's statistics and, for files written by `ppsbench latency`,
// their two delay distributions.
struct Report {
    std::vector<RunAnalysis> runs;
    std::vector<latency::LatencySummary> latency;
};

// Loads every file (capture files and saved summaries, load_runs) in order.
Report load_report(const std::vector<std::string>& paths, const AnalysisSettings& settings);

}  // namespace ppsbench::analysis
