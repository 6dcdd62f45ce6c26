// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ppsbench/analysis/run_analysis.hpp"

namespace ppsbench::analysis {

// One set of bins for every run and every output of a command (the text and Markdown
// histograms, the JSON histograms, the SVG plot and the HTML page), so the runs can be compared
// by eye and an output's counts agree with another's: the same rows over the range all of them
// cover, each bin [lower + i·width, lower + (i+1)·width), its edges whole multiples of the width.
struct SharedBins {
    double lower_ns = 0;
    double upper_ns = 0;  // above every value: bins are [low, high)
    // --bin-width, else the default: 1, 2 or 5 × 10^k ns (core::round_up_1_2_5), at least 1 ns.
    double bin_width_ns = 1;
    // Per run, in the order given: the counts of its headline series (RunStatistics::
    // headline_series), or nothing for a run without one (a saved summary holds no pulses).
    // Every value lands in a bin: a run's counts add up to its series' size.
    std::vector<std::optional<std::vector<std::uint64_t>>> counts;
};

// The default number of bins over the runs' span: the width is the 1-2-5 step at or above
// span / default_bin_count, so a histogram has at most this many rows (readable as text, and
// round edges people can quote).
inline constexpr std::size_t default_bin_count = 20;
// The most bins a chosen --bin-width may make over the runs' span.
inline constexpr std::size_t max_bin_count = 10000;

// Bins of `bin_width_ns` (--bin-width), else of the default width, over every run's headline
// series; nothing when no run has a series. Needs runs analysed with
// AnalysisSettings::keep_series. Throws core::UsageError naming --bin-width when the width
// would make more than max_bin_count bins over the runs' span, with the least width that fits.
std::optional<SharedBins> shared_bins(const std::vector<RunAnalysis>& runs,
                                      std::optional<double> bin_width_ns = std::nullopt);

}  // namespace ppsbench::analysis
