// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/shared_bins.hpp"

#include <algorithm>
#include <cmath>

#include "ppsbench/core/round_number.hpp"
#include "ppsbench/stats/histogram.hpp"

namespace ppsbench::analysis {

std::optional<SharedBins> shared_bins(const std::vector<RunAnalysis>& runs, std::size_t max_bins) {
    double lo = INFINITY;
    double hi = -INFINITY;
    for (const auto& run : runs) {
        if (const auto* series = run.stats.headline_series();
            series != nullptr && !series->empty()) {
            const auto [mn, mx] = std::minmax_element(series->begin(), series->end());
            lo = std::min(lo, *mn);
            hi = std::max(hi, *mx);
        }
    }
    if (!std::isfinite(lo)) {
        return std::nullopt;
    }
    SharedBins bins;
    bins.bin_width_ns =
        core::round_up_1_2_5(std::max((hi - lo) / static_cast<double>(max_bins), 1.0));
    bins.lower_ns = std::floor(lo / bins.bin_width_ns) * bins.bin_width_ns;
    bins.upper_ns = (std::floor(hi / bins.bin_width_ns) + 1) * bins.bin_width_ns;
    for (const auto& run : runs) {
        const auto* series = run.stats.headline_series();
        if (series == nullptr || series->empty()) {
            bins.counts.emplace_back();
            continue;
        }
        stats::HistogramOptions options;
        options.bin_width = bins.bin_width_ns;
        options.lower = bins.lower_ns;
        options.upper = bins.upper_ns;
        options.max_bins = 100000;
        bins.counts.emplace_back(stats::make_histogram(*series, options).counts);
    }
    return bins;
}

}  // namespace ppsbench::analysis
