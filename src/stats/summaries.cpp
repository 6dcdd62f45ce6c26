// SPDX-License-Identifier: GPL-2.0-or-later
#include "summaries.hpp"

#include "histogram_detail.hpp"
#include "order_statistics.hpp"
#include "streamed_summary.hpp"

namespace ppsbench::stats::detail {

namespace {

// Calls f(values, count) for the runs of `values` between the (sorted) positions `drop`.
auto without(std::span<const double> values, std::span<const std::size_t> drop) {
    return [values, drop](auto&& f) {
        std::size_t from = 0;
        for (const std::size_t dropped : drop) {
            for_each_slice(values.subspan(from, dropped - from), f);
            from = dropped + 1;
        }
        for_each_slice(values.subspan(from), f);
    };
}

}  // namespace

HeadlineSummary summarize_headline(std::span<const double> values, const AnalysisOptions& options) {
    const std::span<const double> histogram_qs = options.compute_histogram
                                                     ? std::span<const double>(histogram_quantiles)
                                                     : std::span<const double>{};
    auto s = summarize_buffer(values, histogram_qs);
    HeadlineSummary headline;
    headline.outliers =
        find_outliers(values, options.outlier_k, s.summary.median, s.summary.robust_stddev);
    if (options.compute_histogram) {
        headline.histogram =
            histogram_of_buffer(s.extra, values, s.summary.stddev, options.histogram);
    }
    headline.summary = s.summary;
    return headline;
}

Summary summarize_without(std::span<const double> values, std::span<const std::size_t> outliers,
                          const Summary& all) {
    if (outliers.empty()) {
        return moments_only(all);
    }
    return summarize_moments(without(values, outliers), values.size() - outliers.size());
}

}  // namespace ppsbench::stats::detail
