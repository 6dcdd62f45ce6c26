#include "ppsbench/latency/distribution.hpp"

#include "ppsbench/stats/quantile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ppsbench::latency {

namespace {

// The smallest 1/2/5 × 10^k not below `raw`, so bin edges read well in a table.
double nice_width(double raw) {
    if (!(raw > 1.0)) {
        return 1.0;  // integer nanoseconds: narrower bins say nothing more
    }
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double step : {1.0, 2.0, 5.0, 10.0}) {
        if (step * decade >= raw) {
            return step * decade;
        }
    }
    return 10.0 * decade;
}

}  // namespace

Histogram make_histogram(std::span<const double> values, std::size_t target_bins) {
    Histogram histogram;
    if (values.empty() || target_bins == 0) {
        return histogram;
    }
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    const double low = stats::quantile_sorted(sorted, 0.005);
    const double high = stats::quantile_sorted(sorted, 0.995);
    const double width = nice_width((high - low) / static_cast<double>(target_bins));
    histogram.bin_width_ns = width;
    histogram.start_ns = std::floor(low / width) * width;
    const auto bins = static_cast<std::size_t>(std::floor((high - histogram.start_ns) / width)) + 1;
    histogram.counts.assign(bins, 0);
    const double end = histogram.start_ns + width * static_cast<double>(bins);
    for (const double v : sorted) {
        if (v < histogram.start_ns) {
            ++histogram.underflow;
        } else if (v >= end) {
            ++histogram.overflow;
        } else {
            const auto bin = static_cast<std::size_t>((v - histogram.start_ns) / width);
            ++histogram.counts[std::min(bin, bins - 1)];
        }
    }
    return histogram;
}

Distribution describe(std::vector<double> values) {
    Distribution d;
    d.summary = stats::summarize(values);
    d.histogram = make_histogram(values);
    std::sort(values.begin(), values.end());
    d.p50 = stats::quantile_sorted(values, 0.50);
    d.p90 = stats::quantile_sorted(values, 0.90);
    d.p99 = stats::quantile_sorted(values, 0.99);
    return d;
}

}  // namespace ppsbench::latency
