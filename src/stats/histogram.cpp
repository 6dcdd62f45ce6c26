// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/histogram.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "histogram_detail.hpp"
#include "ppsbench/stats/summary.hpp"
#include "streamed_summary.hpp"

namespace ppsbench::stats {

std::uint64_t Histogram::total() const {
    return std::accumulate(counts.begin(), counts.end(), underflow + overflow);
}

Histogram make_histogram(std::span<const double> values, const HistogramOptions& options) {
    if (values.empty()) {
        return {};
    }
    const auto summary = detail::summarize_buffer(values, detail::histogram_quantiles);
    return detail::histogram_of_buffer(summary.extra, values, summary.summary.stddev, options);
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
    // Blocks converted on the fly and an even sample instead of a converted copy; the order
    // statistics come out the same.
    const auto blocks = [values_ns](auto&& f) {
        double block[detail::kernel_block];
        for (std::size_t i = 0; i < values_ns.size(); i += detail::kernel_block) {
            const std::size_t count = std::min(values_ns.size() - i, detail::kernel_block);
            for (std::size_t j = 0; j < count; ++j) {
                block[j] = static_cast<double>(values_ns[i + j]);
            }
            f(static_cast<const double*>(block), count);
        }
    };
    const std::size_t stride = std::max<std::size_t>(1, values_ns.size() / detail::sample_size);
    std::vector<double> sample;
    for (std::size_t i = 0; i < values_ns.size(); i += stride) {
        sample.push_back(static_cast<double>(values_ns[i]));
    }
    const auto summary = detail::summarize_series(blocks, values_ns.size(), std::move(sample),
                                                  values_ns.size() <= detail::sample_size,
                                                  detail::histogram_quantiles);
    return detail::histogram_from_quantiles(summary.extra, values_ns.size(), summary.summary.stddev,
                                            as_double, options);
}

}  // namespace ppsbench::stats
