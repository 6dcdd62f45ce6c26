#include "ppsbench/stats/period_jitter.hpp"

#include "train_detail.hpp"

namespace ppsbench::stats {

PeriodJitter period_jitter(std::span<const std::int64_t> timestamps_ns,
                           std::span<const std::int64_t> index, std::int64_t period_ns,
                           std::span<const std::size_t> breaks,
                           std::span<const std::size_t> excluded) {
    PeriodJitter result;
    if (timestamps_ns.size() < 2) {
        return result;
    }
    result.values_ns.reserve(timestamps_ns.size() - 1);
    const auto counts = detail::for_each_period_jitter(
        timestamps_ns, timestamps_ns.size(), detail::SpanIndex{index}, period_ns, breaks, excluded,
        [&result](double v) { result.values_ns.push_back(v); });
    result.skipped_gaps = counts.skipped_gaps;
    result.skipped_excluded = counts.skipped_excluded;
    return result;
}

}  // namespace ppsbench::stats
