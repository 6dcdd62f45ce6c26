// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/plot_data.hpp"

#include <algorithm>
#include <cmath>

#include "ppsbench/analysis/shared_bins.hpp"

namespace ppsbench::analysis {

Plot make_plot(const std::vector<RunAnalysis>& runs, std::optional<double> bin_width_ns,
               std::size_t max_points) {
    Plot plot;
    plot.value_name = std::all_of(runs.begin(), runs.end(),
                                  [](const auto& r) { return r.stats.offset_ns.has_value(); })
                          ? "phase offset"
                          : "detrended residual";
    plot.title = "PPS " + plot.value_name + " by run";
    // One axis for every run, on the bins every other output of the command uses.
    const auto bins = shared_bins(runs, bin_width_ns);
    plot.bins_lower_ns = bins ? bins->lower_ns : -1;
    plot.bin_width_ns = bins ? bins->bin_width_ns : 2;
    std::size_t r = 0;
    for (const auto& run : runs) {
        PlotRun pr;
        pr.label = run.simulated ? run.label + " (simulated)" : run.label;
        plot.simulated = plot.simulated || run.simulated;
        const auto& headline = run.stats.headline();
        pr.sigma_ns = headline.stddev;
        pr.p2p_ns = headline.peak_to_peak;
        pr.median_ns = headline.median;
        pr.p99_abs_ns = headline.abs_percentiles.p99;
        const auto* series = run.stats.headline_series();
        if (series != nullptr && !series->empty()) {
            for (const auto count : *bins->counts[r]) {
                pr.bin_counts.push_back(static_cast<double>(count) /
                                        static_cast<double>(series->size()));
            }
            const auto& pulse_index = run.stats.series->index;
            const double period_s = static_cast<double>(run.stats.period_ns) / 1e9;
            const std::size_t n = series->size();
            const std::size_t bucket =
                std::max<std::size_t>(1, (2 * n + max_points - 1) / max_points);
            for (std::size_t start = 0; start < n; start += bucket) {
                const std::size_t end = std::min(n, start + bucket);
                auto [mn, mx] = std::minmax_element(series->begin() + static_cast<long>(start),
                                                    series->begin() + static_cast<long>(end));
                for (auto it : {mn, mx}) {
                    const auto i = static_cast<std::size_t>(it - series->begin());
                    const double t =
                        i < pulse_index.size()
                            ? static_cast<double>(pulse_index[i] - pulse_index[0]) * period_s
                            : static_cast<double>(i) * period_s;
                    pr.time_s.push_back(t);
                    pr.value_ns.push_back(*it);
                    if (mn == mx) {
                        break;
                    }
                }
            }
        }
        plot.runs.push_back(std::move(pr));
        ++r;
    }
    return plot;
}

}  // namespace ppsbench::analysis
