// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/confidence.hpp"

#include "ppsbench/core/random.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ppsbench/stats/distributions.hpp"
#include "ppsbench/stats/quantile.hpp"

namespace ppsbench::stats {

namespace {

// Per-block count, sum and sum of squares of mean-centred values: a resample of blocks then
// costs one addition per block instead of one per sample.
struct Blocks {
    std::vector<double> count;
    std::vector<double> sum;
    std::vector<double> squares;
};

Blocks make_blocks(std::span<const double> values, std::size_t max_blocks) {
    const std::size_t n = values.size();
    const std::size_t length = (n + max_blocks - 1) / std::max<std::size_t>(max_blocks, 1);
    // Plain double arithmetic throughout (no long double, whose width varies by platform), so
    // the interval for a seed is bit-identical everywhere.
    double total = 0;
    for (double v : values) {
        total += v;
    }
    const double mean = total / static_cast<double>(n);
    Blocks blocks;
    for (std::size_t start = 0; start < n; start += length) {
        const std::size_t end = std::min(n, start + length);
        double sum = 0;
        double squares = 0;
        for (std::size_t i = start; i < end; ++i) {
            const double d = values[i] - mean;
            sum += d;
            squares += d * d;
        }
        blocks.count.push_back(static_cast<double>(end - start));
        blocks.sum.push_back(sum);
        blocks.squares.push_back(squares);
    }
    return blocks;
}

double resampled_variance(const Blocks& blocks, core::Random& rng) {
    const std::size_t k = blocks.count.size();
    double count = 0;
    double sum = 0;
    double squares = 0;
    for (std::size_t i = 0; i < k; ++i) {
        const std::size_t pick = rng.below(k);
        count += blocks.count[pick];
        sum += blocks.sum[pick];
        squares += blocks.squares[pick];
    }
    return (squares - sum * sum / count) / (count - 1.0);
}

}  // namespace

Interval stddev_interval(double stddev, std::size_t count, double confidence) {
    if (count < 2 || std::isnan(stddev)) {
        return {};
    }
    const double dof = static_cast<double>(count - 1);
    const double alpha = 1.0 - confidence;
    return {stddev * std::sqrt(dof / chi_square_quantile(1.0 - alpha / 2.0, dof)),
            stddev * std::sqrt(dof / chi_square_quantile(alpha / 2.0, dof))};
}

Interval stddev_ratio_f_interval(double stddev_a, std::size_t count_a, double stddev_b,
                                 std::size_t count_b, double confidence) {
    if (count_a < 2 || count_b < 2 || std::isnan(stddev_a) || std::isnan(stddev_b)) {
        return {};
    }
    const double ratio = stddev_a / stddev_b;
    const double d1 = static_cast<double>(count_a - 1);
    const double d2 = static_cast<double>(count_b - 1);
    const double alpha = 1.0 - confidence;
    return {ratio / std::sqrt(f_quantile(1.0 - alpha / 2.0, d1, d2)),
            ratio / std::sqrt(f_quantile(alpha / 2.0, d1, d2))};
}

Interval stddev_ratio_bootstrap(std::span<const double> a, std::span<const double> b,
                                const BootstrapOptions& options) {
    if (a.size() < 2 || b.size() < 2 || options.resamples == 0) {
        return {};
    }
    const Blocks blocks_a = make_blocks(a, options.max_blocks);
    const Blocks blocks_b = make_blocks(b, options.max_blocks);
    core::Random rng(options.seed);
    std::vector<double> ratios;
    ratios.reserve(options.resamples);
    for (std::size_t r = 0; r < options.resamples; ++r) {
        const double var_a = resampled_variance(blocks_a, rng);
        const double var_b = resampled_variance(blocks_b, rng);
        const double ratio = std::sqrt(var_a / var_b);
        if (std::isnan(ratio)) {
            return {};  // both resamples constant: no ratio to speak of
        }
        ratios.push_back(ratio);
    }
    std::sort(ratios.begin(), ratios.end());
    const double alpha = 1.0 - options.confidence;
    return {quantile_sorted(ratios, alpha / 2.0), quantile_sorted(ratios, 1.0 - alpha / 2.0)};
}

}  // namespace ppsbench::stats
