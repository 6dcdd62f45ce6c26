// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ppsbench/stats/interval.hpp"

namespace ppsbench::stats {

// Chi-square interval for a standard deviation: σ lies in
// [s·sqrt((n−1)/χ²_{(1+c)/2}), s·sqrt((n−1)/χ²_{(1−c)/2})] with confidence c, for n independent
// normal samples. NaN when n < 2.
Interval stddev_interval(double stddev, std::size_t count, double confidence = 0.95);

// F interval for the ratio σ_a/σ_b of two independent normal samples:
// (s_a/s_b) / sqrt(F_{(1+c)/2}(n_a−1, n_b−1)) … (s_a/s_b) / sqrt(F_{(1−c)/2}(n_a−1, n_b−1)).
// Exact under normality and independence; jitter is neither, so see also the bootstrap below.
Interval stddev_ratio_f_interval(double stddev_a, std::size_t count_a, double stddev_b,
                                 std::size_t count_b, double confidence = 0.95);

struct BootstrapOptions {
    std::uint64_t seed = 1;
    std::size_t resamples = 2000;
    double confidence = 0.95;
    // Series longer than this are resampled in contiguous blocks (n / max_blocks samples each),
    // which keeps the cost at resamples × max_blocks and respects short-range correlation.
    std::size_t max_blocks = 4096;
};

// Percentile bootstrap interval for σ_a/σ_b: resample each series with replacement, take the
// ratio of sample σs, repeat, report the (1−c)/2 and (1+c)/2 percentiles. Deterministic for a
// given seed on every platform: the generator (xoshiro256**) and the bounded integers (Lemire's
// method) are implemented here, not taken from <random>'s distributions. NaN when either series
// has fewer than 2 values.
Interval stddev_ratio_bootstrap(std::span<const double> a, std::span<const double> b,
                                const BootstrapOptions& options = {});

}  // namespace ppsbench::stats
