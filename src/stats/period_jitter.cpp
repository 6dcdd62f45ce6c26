#include "ppsbench/stats/period_jitter.hpp"

#include <algorithm>

namespace ppsbench::stats {

namespace {

bool contains(std::span<const std::size_t> sorted, std::size_t value) {
    return std::binary_search(sorted.begin(), sorted.end(), value);
}

}  // namespace

PeriodJitter period_jitter(std::span<const std::int64_t> timestamps_ns,
                           std::span<const std::int64_t> index, std::int64_t period_ns,
                           std::span<const std::size_t> breaks,
                           std::span<const std::size_t> excluded) {
    PeriodJitter result;
    if (timestamps_ns.size() < 2) {
        return result;
    }
    result.values_ns.reserve(timestamps_ns.size() - 1);
    for (std::size_t i = 1; i < timestamps_ns.size(); ++i) {
        if (index[i] - index[i - 1] != 1) {
            ++result.skipped_gaps;
            continue;
        }
        if (contains(breaks, i) || contains(excluded, i) || contains(excluded, i - 1)) {
            ++result.skipped_excluded;
            continue;
        }
        result.values_ns.push_back(
            static_cast<double>(timestamps_ns[i] - timestamps_ns[i - 1] - period_ns));
    }
    return result;
}

}  // namespace ppsbench::stats
