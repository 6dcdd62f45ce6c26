#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ppsbench/stats/summary.hpp"

namespace ppsbench::latency {

// A histogram of fixed-width bins with an underflow and an overflow bucket (as cyclictest and
// rtla keep one), so a rare 200 µs wake-up is counted, not cut off.
struct Histogram {
    double start_ns = 0;      // lower edge of the first bin
    double bin_width_ns = 0;  // > 0 when there are bins
    std::vector<std::uint64_t> counts;
    std::uint64_t underflow = 0;  // below start_ns
    std::uint64_t overflow = 0;   // at or above the last bin's upper edge
};

// Bins of a "nice" width (1, 2 or 5 × 10^k ns) covering [p0.5, p99.5] in about `target_bins`
// bins; the tails go to the under/overflow buckets. Empty input gives no bins.
Histogram make_histogram(std::span<const double> values, std::size_t target_bins = 20);

// What a latency report shows for one series of delays, in ns.
struct Distribution {
    stats::Summary summary;  // count, mean, σ (n − 1), min, max
    double p50 = 0;
    double p90 = 0;
    double p99 = 0;
    Histogram histogram;
};

Distribution describe(std::vector<double> values);

}  // namespace ppsbench::latency
