// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/histogram.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "histogram_detail.hpp"
#include "order_statistics.hpp"
#include "ppsbench/stats/summary.hpp"

namespace ppsbench::stats {

std::uint64_t Histogram::total() const {
    return std::accumulate(counts.begin(), counts.end(), underflow + overflow);
}

Histogram make_histogram(std::span<const double> values, const HistogramOptions& options) {
    if (values.empty()) {
        return {};
    }
    const auto summary = detail::summarize_buffer(values, detail::histogram_quantiles);
    return detail::histogram_from_quantiles(
        summary.extra, values.size(), summary.summary.stddev,
        [values](auto&& f) {
            for (double v : values) {
                f(v);
            }
        },
        options);
}

Histogram make_histogram_ns(std::span<const std::int64_t> values_ns,
                            const HistogramOptions& options) {
    if (values_ns.empty()) {
        return {};
    }
    const auto as_double = [values_ns](auto&& f) {
        for (const std::int64_t v : values_ns) {
            f(static_cast<double>(v));
        }
    };
    // A sampling pass instead of a converted copy; the order statistics come out the same.
    const auto summary =
        detail::summarize_series(as_double, values_ns.size(), detail::histogram_quantiles);
    return detail::histogram_from_quantiles(summary.extra, values_ns.size(), summary.summary.stddev,
                                            as_double, options);
}

}  // namespace ppsbench::stats
