// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/latency/distribution.hpp"

#include <algorithm>
#include <cmath>

#include "ppsbench/core/round_number.hpp"
#include "ppsbench/stats/quantile.hpp"

namespace ppsbench::latency {

namespace {

constexpr double target_bins = 20;

// The smallest 1/2/5 × 10^k not below `raw`, so bin edges read well in a table.
double nice_width(double raw) {
    if (!(raw > 1.0)) {
        return 1.0;  // integer nanoseconds: narrower bins say nothing more
    }
    return core::round_up_1_2_5(raw);
}

// The latency binning rule on stats' histogram: a fixed width and range. Widths are whole
// nanoseconds and the lower edge a multiple of the width, so the edges are exact and every
// value lands where its integer position says.
stats::Histogram latency_histogram(std::span<const double> sorted) {
    if (sorted.empty()) {
        return {};
    }
    const double low = stats::quantile_sorted(sorted, 0.005);
    const double high = stats::quantile_sorted(sorted, 0.995);
    stats::HistogramOptions options;
    const double width = nice_width((high - low) / target_bins);
    const double lower = std::floor(low / width) * width;
    const double bins = std::floor((high - lower) / width) + 1;
    options.bin_width = width;
    options.lower = lower;
    options.upper = lower + width * bins;
    return stats::make_histogram(sorted, options);
}

}  // namespace

Distribution describe(std::vector<double> values) {
    Distribution d;
    d.summary = stats::summarize(values);
    std::sort(values.begin(), values.end());
    d.histogram = latency_histogram(values);
    d.p50 = stats::quantile_sorted(values, 0.50);
    d.p90 = stats::quantile_sorted(values, 0.90);
    d.p99 = stats::quantile_sorted(values, 0.99);
    return d;
}

}  // namespace ppsbench::latency
