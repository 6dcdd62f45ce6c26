#include "ppsbench/stats/period_jitter.hpp"

#include <algorithm>

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
    // Both lists are sorted: walk them with cursors instead of searching per pair.
    std::size_t next_break = 0;
    std::size_t next_excluded = 0;
    for (std::size_t i = 1; i < timestamps_ns.size(); ++i) {
        while (next_break < breaks.size() && breaks[next_break] < i) {
            ++next_break;
        }
        while (next_excluded < excluded.size() && excluded[next_excluded] < i - 1) {
            ++next_excluded;
        }
        if (index[i] - index[i - 1] != 1) {
            ++result.skipped_gaps;
            continue;
        }
        const bool at_break = next_break < breaks.size() && breaks[next_break] == i;
        const bool touches_excluded =
            next_excluded < excluded.size() &&
            (excluded[next_excluded] == i - 1 || excluded[next_excluded] == i);
        if (at_break || touches_excluded) {
            ++result.skipped_excluded;
            continue;
        }
        result.values_ns.push_back(
            static_cast<double>(timestamps_ns[i] - timestamps_ns[i - 1] - period_ns));
    }
    return result;
}

}  // namespace ppsbench::stats
