// SPDX-License-Identifier: GPL-2.0-or-later
#include "period_jitter.hpp"

#include <algorithm>

#include "order_statistics.hpp"
#include "period_pairs.hpp"
#include "streamed_summary.hpp"

namespace ppsbench::stats::detail {

namespace {

// The summary with the outliers and the moments without them, from the same walks over the
// timestamps: the values of a plain stretch feed both, a pair touching an outlier only the
// first. Blocks in time order, so the same figures as one value at a time.
void summarize_both(PeriodJitter& result, const PeriodPairs& pairs, const PairCounts& counts) {
    const bool whole = counts.values <= sample_size;
    std::vector<double> sample =
        whole ? pairs.values(counts.values) : pairs.sample(counts.values / sample_size + 1);
    StreamedSummary with(counts.values, std::move(sample), whole);
    StreamedMoments without(counts.values - counts.touching);
    auto all = [&pairs](auto&& f) { pairs.walk(f, f); };
    with.begin_first();
    pairs.walk(
        [&](const double* v, std::size_t count) {
            with.first(v, count);
            without.first(v, count);
        },
        [&](const double* v, std::size_t count) { with.first(v, count); });
    with.end_first(all);
    without.end_first();
    with.begin_second();
    pairs.walk(
        [&](const double* v, std::size_t count) {
            with.second(v, count);
            without.second(v, count);
        },
        [&](const double* v, std::size_t count) { with.second(v, count); });
    with.end_second(all);
    result.all = with.summary();
    result.without_outliers = counts.touching > 0 ? without.summary() : moments_only(result.all);
}

}  // namespace

PeriodJitter period_jitter(const Selection& selection, const PulseIndex& index,
                           std::int64_t period_ns, std::span<const std::size_t> steps,
                           std::span<const std::size_t> outliers, bool keep_series) {
    const PeriodPairs pairs(selection, index, period_ns, steps, outliers);
    const PairCounts counts = pairs.count();
    PeriodJitter result;
    result.counts = {counts.values, counts.skipped_gaps, counts.skipped_breaks};
    summarize_both(result, pairs, counts);
    if (keep_series) {
        // Every value, in time order (the plots and the bootstrap take the series as measured).
        result.values.reserve(counts.values);
        const auto append = [&result](const double* v, std::size_t count) {
            result.values.insert(result.values.end(), v, v + count);
        };
        pairs.walk(append, append);
    }
    return result;
}

}  // namespace ppsbench::stats::detail
