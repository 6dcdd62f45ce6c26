// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/shared_bins.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <cmath>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/round_number.hpp"
#include "ppsbench/stats/histogram.hpp"

namespace ppsbench::analysis {

namespace {

// A width the user chose that would make a histogram nobody can read (and a document of
// megabytes) is refused with the least width that fits, never widened behind their back.
void check_bin_count(double lo, double hi, double width) {
    const double bins = std::floor(hi / width) - std::floor(lo / width) + 1;
    if (bins <= static_cast<double>(max_bin_count)) {
        return;
    }
    const double least = core::round_up_1_2_5((hi - lo) / static_cast<double>(max_bin_count - 1));
    const auto as_duration = [](double ns) {
        return core::format_duration_option(core::Duration(static_cast<std::int64_t>(ns)));
    };
    throw core::UsageError(fmt::format(
        "--bin-width {}: the runs span {} ns, which would be {:.0f} bins (at most {}); use "
        "--bin-width {} or wider, or leave it out for {} round bins",
        as_duration(width), std::llround(hi - lo), bins, max_bin_count, as_duration(least),
        default_bin_count));
}

}  // namespace

std::optional<SharedBins> shared_bins(const std::vector<RunAnalysis>& runs,
                                      std::optional<double> bin_width_ns) {
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
    if (bin_width_ns) {
        check_bin_count(lo, hi, *bin_width_ns);
        bins.bin_width_ns = *bin_width_ns;
    } else {
        bins.bin_width_ns =
            core::round_up_1_2_5(std::max((hi - lo) / static_cast<double>(default_bin_count), 1.0));
    }
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
        options.max_bins = max_bin_count + 1;
        bins.counts.emplace_back(stats::make_histogram(*series, options).counts);
    }
    return bins;
}

}  // namespace ppsbench::analysis
