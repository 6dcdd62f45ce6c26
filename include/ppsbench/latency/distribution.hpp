// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <vector>

#include "ppsbench/stats/histogram.hpp"
#include "ppsbench/stats/summary.hpp"

namespace ppsbench::latency {

// What a latency report shows for one series of delays, in ns.
struct Distribution {
    stats::Summary summary;  // count, mean, σ (n − 1), min, max
    double p50 = 0;
    double p90 = 0;
    double p99 = 0;
    // Bins of a "nice" width (1, 2 or 5 × 10^k ns) covering [p0.5, p99.5] in about 20 bins; the
    // tails go to the under/overflow buckets (as cyclictest and rtla keep them), so a rare
    // 200 µs wake-up is counted, not cut off. Empty input gives no bins.
    stats::Histogram histogram;
};

Distribution describe(std::vector<double> values);

}  // namespace ppsbench::latency
