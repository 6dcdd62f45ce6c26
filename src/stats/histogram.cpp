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

}  // namespace ppsbench::stats
