// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ppsbench/analysis/run_analysis.hpp"

namespace ppsbench::analysis {

// One set of round bins for every run of a report, so the runs can be compared by eye: the
// same rows over the range all of them cover, each bin [lower + i·width, lower + (i+1)·width).
struct SharedBins {
    double lower_ns = 0;
    double upper_ns = 0;      // above every value: bins are [low, high)
    double bin_width_ns = 1;  // 1, 2 or 5 × 10^k ns (core::round_up_1_2_5), at least 1 ns
    // Per run, in the order given: the counts of its headline series (RunStatistics::
    // headline_series), or nothing for a run without one (a saved summary holds no pulses).
    std::vector<std::optional<std::vector<std::uint64_t>>> counts;
};

// At most `max_bins` bins of a round width over every run's headline series; nothing when no
// run has a series. Needs runs analysed with AnalysisSettings::keep_series.
std::optional<SharedBins> shared_bins(const std::vector<RunAnalysis>& runs,
                                      std::size_t max_bins = 20);

}  // namespace ppsbench::analysis
