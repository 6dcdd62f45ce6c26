#include "ppsbench/stats/histogram.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "ppsbench/stats/quantile.hpp"
#include "ppsbench/stats/summary.hpp"

namespace ppsbench::stats {

std::uint64_t Histogram::total() const {
    return std::accumulate(counts.begin(), counts.end(), underflow + overflow);
}

Histogram make_histogram(std::span<const double> values, const HistogramOptions& options) {
    Histogram h;
    if (values.empty()) {
        return h;
    }
    std::vector<double> scratch(values.begin(), values.end());
    static constexpr double qs[] = {0.0, 0.001, 0.25, 0.75, 0.999, 1.0};
    const auto q = quantiles_in_place(scratch, qs);
    const double n = static_cast<double>(values.size());

    double width = options.bin_width.value_or(0.0);
    if (!(width > 0.0)) {
        width = 2.0 * (q[3] - q[2]) / std::cbrt(n);
        if (!(width > 0.0)) {
            const double sigma = summarize(values).stddev;
            width = sigma > 0.0 ? 3.49 * sigma / std::cbrt(n) : 1.0;
        }
    }
    double lower = options.lower.value_or(q[0]);
    double upper = options.upper.value_or(q[5]);
    const auto bins_for = [&](double lo, double hi) { return std::floor((hi - lo) / width) + 1.0; };
    const auto max_bins = static_cast<double>(std::max<std::size_t>(options.max_bins, 1));
    if (!options.lower && !options.upper && bins_for(lower, upper) > max_bins) {
        lower = q[1];
        upper = q[4];
        if (bins_for(lower, upper) > max_bins) {
            width = (upper - lower) / (max_bins - 1.0);
        }
    }
    // Align edges to multiples of the width, so bins read as round numbers.
    if (!options.lower) {
        lower = std::floor(lower / width) * width;
    }
    double bins = options.upper ? std::ceil((upper - lower) / width) : bins_for(lower, upper);
    bins = std::clamp(bins, 1.0, std::max(max_bins, 1.0));
    h.lower_edge = lower;
    h.bin_width = width;
    h.counts.assign(static_cast<std::size_t>(bins), 0);
    for (double v : values) {
        if (std::isnan(v)) {
            continue;  // no bin for "not a number"; callers pass measured values only
        }
        const double position = std::floor((v - lower) / width);
        if (position < 0.0) {
            ++h.underflow;
        } else if (position >= bins) {
            ++h.overflow;
        } else {
            ++h.counts[static_cast<std::size_t>(position)];
        }
    }
    return h;
}

}  // namespace ppsbench::stats
