// SPDX-License-Identifier: GPL-2.0-or-later
#include "period_jitter.hpp"

#include "order_statistics.hpp"
#include "streamed_summary.hpp"

namespace ppsbench::stats::detail {

namespace {

// The summary with the outliers and the moments without them from the same walks over the
// timestamps: a count and sample walk, then two passes, each walk feeding both
// (streamed_summary.hpp: the same bits as summarize_series() and summarize_moments() apart).
template <typename Pairs>
void summarize_both(PeriodJitter& result, Pairs& pairs) {
    auto all = [&pairs](auto&& f) { pairs([&f](double v, bool) { f(v); }); };
    SampleCollector all_sample;
    const PairCounts counts = pairs([&](double v, bool) { all_sample.add(v); });
    result.counts = {counts.values, counts.skipped_gaps, counts.skipped_breaks};
    const bool all_whole = all_sample.whole();
    StreamedSummary with(counts.values, all_sample.take(), all_whole);
    StreamedMoments without(counts.values - counts.touching);
    with.begin_first();
    pairs([&](double v, bool touches_outlier) {
        with.first(v);
        if (!touches_outlier) {
            without.first(v);
        }
    });
    with.end_first(all);
    without.end_first();
    with.begin_second();
    pairs([&](double v, bool touches_outlier) {
        with.second(v);
        if (!touches_outlier) {
            without.second(v);
        }
    });
    with.end_second(all);
    result.all = with.summary();
    result.without_outliers = without.summary();
}

}  // namespace

PeriodJitter period_jitter(const Selection& selection, const PulseIndex& index,
                           std::int64_t period_ns, std::span<const std::size_t> steps,
                           std::span<const std::size_t> outliers, bool keep_series) {
    const TimestampColumn t{selection};
    const std::size_t n = selection.size;
    PeriodJitter result;
    if (!outliers.empty()) {
        auto pairs = [&](auto&& f) {
            return for_each_period_pair(t, n, index, period_ns, steps, outliers, f);
        };
        summarize_both(result, pairs);
    } else {
        // A pass to count and sample, then the summary's passes: the values are never stored.
        auto visit = [&](auto&& f) {
            for_each_period_jitter(t, n, index, period_ns, steps, {}, f);
        };
        SampleCollector sample;
        result.counts = for_each_period_jitter(t, n, index, period_ns, steps, {},
                                               [&sample](double v) { sample.add(v); });
        const bool whole = sample.whole();
        result.all = summarize_series(visit, result.counts.values, sample.take(), whole).summary;
        result.without_outliers = moments_only(result.all);
    }
    if (keep_series) {
        result.values.reserve(result.counts.values);
        for_each_period_jitter(t, n, index, period_ns, steps, {},
                               [&](double v) { result.values.push_back(v); });
    }
    return result;
}

}  // namespace ppsbench::stats::detail
