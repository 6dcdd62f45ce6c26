// SPDX-License-Identifier: GPL-2.0-or-later
#include "summaries.hpp"

#include <vector>

#include "histogram_detail.hpp"
#include "order_statistics.hpp"
#include "streamed_summary.hpp"
#include "value_scans.hpp"

namespace ppsbench::stats::detail {

namespace {

// visit(f) with f(values, count): a view's blocks as the summaries' passes take them.
template <typename View>
auto blocks_of(const View& view) {
    return [&view](auto&& f) {
        view.for_each(
            [&f](const double* v, std::size_t count, std::size_t, std::int64_t) { f(v, count); });
    };
}

// Up to ~sample_size values at an even stride: every value when there are no more.
template <typename View>
std::vector<double> sample_of(const View& view) {
    const std::size_t stride = std::max<std::size_t>(1, view.size() / sample_size);
    std::vector<double> sample;
    sample.reserve(view.size() / stride + 1);
    for (std::size_t i = 0; i < view.size(); i += stride) {
        sample.push_back(view.at(i));
    }
    return sample;
}

// find_outliers() on a view: its rule, scanned a block at a time in lanes. Only a zero robust
// σ (more than half the values equal) takes find_outliers' fallback, on a copy.
template <typename View>
Outliers outliers_of(const View& view, double k, double median, double robust_stddev) {
    if (view.size() == 0 || !(robust_stddev > 0.0)) {
        return find_outliers(values_of(view), k, median, robust_stddev);
    }
    Outliers result;
    result.center = median;
    result.scale = robust_stddev;
    result.threshold = k * result.scale;
    view.for_each([&](const double* v, std::size_t count, std::size_t first, std::int64_t) {
        indices_beyond({v, count}, first, result.center, result.threshold, result.indices);
    });
    return result;
}

template <typename View>
HeadlineSummary headline_of(const View& view, const AnalysisOptions& options) {
    const std::span<const double> histogram_qs = options.compute_histogram
                                                     ? std::span<const double>(histogram_quantiles)
                                                     : std::span<const double>{};
    auto s = summarize_series(blocks_of(view), view.size(), sample_of(view),
                              view.size() <= sample_size, histogram_qs);
    HeadlineSummary headline;
    headline.outliers =
        outliers_of(view, options.outlier_k, s.summary.median, s.summary.robust_stddev);
    if (options.compute_histogram) {
        headline.histogram =
            histogram_of_buffer(s.extra, values_of(view), s.summary.stddev, options.histogram);
    }
    headline.summary = s.summary;
    return headline;
}

// The blocks of a view without the values at the (sorted) positions `drop`.
template <typename View>
auto without(const View& view, std::span<const std::size_t> drop) {
    return [&view, drop](auto&& f) {
        std::size_t next = 0;
        view.for_each([&](const double* v, std::size_t count, std::size_t first, std::int64_t) {
            std::size_t from = 0;
            while (next < drop.size() && drop[next] < first + count) {
                const std::size_t at = drop[next] - first;
                if (at > from) {
                    f(v + from, at - from);
                }
                from = at + 1;
                ++next;
            }
            if (from < count) {
                f(v + from, count - from);
            }
        });
    };
}

template <typename View>
Summary without_of(const View& view, std::span<const std::size_t> outliers, const Summary& all) {
    if (outliers.empty()) {
        return moments_only(all);
    }
    return summarize_moments(without(view, outliers), view.size() - outliers.size());
}

}  // namespace

HeadlineSummary summarize_headline(const PhaseView& values, const AnalysisOptions& options) {
    return headline_of(values, options);
}

HeadlineSummary summarize_headline(const ResidualView& values, const AnalysisOptions& options) {
    return headline_of(values, options);
}

Summary summarize_view(const ResidualView& values) {
    return summarize_series(blocks_of(values), values.size(), sample_of(values),
                            values.size() <= sample_size)
        .summary;
}

Summary summarize_without(const PhaseView& values, std::span<const std::size_t> outliers,
                          const Summary& all) {
    return without_of(values, outliers, all);
}

Summary summarize_without(const ResidualView& values, std::span<const std::size_t> outliers,
                          const Summary& all) {
    return without_of(values, outliers, all);
}

}  // namespace ppsbench::stats::detail
