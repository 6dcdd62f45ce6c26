// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ppsbench/analysis/run_analysis.hpp"

namespace ppsbench::analysis {

// What the SVG shows, computed by the library (binning on one shared axis, decimation of long
// series) so the SVG writer only draws.
struct PlotRun {
    std::string label;               // "(simulated)" included where it applies
    std::vector<double> bin_counts;  // fraction of the run's pulses in each shared bin
    std::vector<double> time_s;      // time series: seconds since the run's first pulse
    std::vector<double> value_ns;    // offset (or detrended residual) at that time
    // For the legend and the marks on the histogram: the run's headline figures.
    double sigma_ns = 0;
    double p2p_ns = 0;
    double median_ns = 0;   // p50 of the signed value
    double p99_abs_ns = 0;  // p99 of |value|, marked at ±
};

struct Plot {
    std::string title;
    std::string value_name;  // "phase offset" or "detrended residual"
    double bins_lower_ns = 0;
    double bin_width_ns = 1;
    std::vector<PlotRun> runs;
    bool simulated = false;
    bool log_counts = false;  // histogram on a log axis, so single-pulse tails show
};

// Needs runs analysed with AnalysisSettings::keep_series. The histogram is on the command's
// shared bins (shared_bins(): --bin-width, else the default round width). Long series are
// reduced to at most `max_points` per run, keeping each bucket's minimum and maximum so spikes
// stay visible.
Plot make_plot(const std::vector<RunAnalysis>& runs,
               std::optional<double> bin_width_ns = std::nullopt, std::size_t max_points = 2000);

}  // namespace ppsbench::analysis
