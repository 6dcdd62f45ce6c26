// SPDX-License-Identifier: GPL-2.0-or-later
#include "period_jitter.hpp"

#include "order_statistics.hpp"

namespace ppsbench::stats::detail {

PeriodJitter period_jitter(const Selection& selection, const PulseIndex& index,
                           std::int64_t period_ns, std::span<const std::size_t> steps,
                           std::span<const std::size_t> outliers, bool keep_series) {
    const TimestampColumn t{selection};
    const std::size_t n = selection.size;
    auto visit = [&](std::span<const std::size_t> excluded) {
        return [&, excluded](auto&& f) {
            for_each_period_jitter(t, n, index, period_ns, steps, excluded, f);
        };
    };
    // A pass to count and sample, then the summary's passes: the values are never stored.
    auto summary = [&](std::span<const std::size_t> excluded, JitterCounts& counts) {
        SampleCollector sample;
        counts = for_each_period_jitter(t, n, index, period_ns, steps, excluded,
                                        [&sample](double v) { sample.add(v); });
        const bool whole = sample.whole();
        return summarize_series(visit(excluded), counts.values, sample.take(), whole).summary;
    };
    PeriodJitter result;
    result.all = summary({}, result.counts);
    if (keep_series) {
        result.values.reserve(result.counts.values);
        visit({})([&](double v) { result.values.push_back(v); });
    }
    if (!outliers.empty()) {
        JitterCounts clean;
        result.without_outliers = summary(outliers, clean);
    } else {
        result.without_outliers = result.all;
    }
    return result;
}

}  // namespace ppsbench::stats::detail
