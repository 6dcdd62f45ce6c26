// SPDX-License-Identifier: GPL-2.0-or-later
// The summaries read a series a block at a time through kernels compiled per CPU
// (summary_passes.hpp, streamed_summary.hpp). Whatever the blocks and whichever kernel form
// runs, a summary must give the bits of a plain reference: the sums added one value at a time
// in BlockedSum's order, the order statistics read off a sorted copy (numpy's rules), on both
// sides of the 65 536-value sample where the bracketed selection takes over, with samples that
// mislead the brackets, and for empty and one-value series. One walk may feed two summaries
// (the period jitter with and without its outliers): each gets the bits it gets alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "ppsbench/stats/quantile.hpp"
#include "stats/lanes.hpp"
#include "stats/streamed_summary.hpp"

namespace {

using namespace ppsbench::stats;
using namespace ppsbench::stats::detail;

// Equal bits, so NaN equals NaN and −0 differs from +0.
void expect_same_bits(double a, double b, const char* what) {
    EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << what << ": " << a << " vs " << b;
}

void expect_same(const Summary& a, const Summary& b) {
    EXPECT_EQ(a.count, b.count);
    expect_same_bits(a.mean, b.mean, "mean");
    expect_same_bits(a.stddev, b.stddev, "stddev");
    expect_same_bits(a.min, b.min, "min");
    expect_same_bits(a.max, b.max, "max");
    expect_same_bits(a.peak_to_peak, b.peak_to_peak, "peak_to_peak");
    expect_same_bits(a.rms, b.rms, "rms");
    expect_same_bits(a.median, b.median, "median");
    expect_same_bits(a.robust_stddev, b.robust_stddev, "robust_stddev");
    expect_same_bits(a.abs_percentiles.p50, b.abs_percentiles.p50, "p50");
    expect_same_bits(a.abs_percentiles.p90, b.abs_percentiles.p90, "p90");
    expect_same_bits(a.abs_percentiles.p99, b.abs_percentiles.p99, "p99");
    expect_same_bits(a.abs_percentiles.p99_9, b.abs_percentiles.p99_9, "p99.9");
    expect_same_bits(a.abs_percentiles.p99_99, b.abs_percentiles.p99_99, "p99.99");
    expect_same_bits(a.abs_percentiles.max, b.abs_percentiles.max, "max |x|");
    expect_same_bits(a.stddev_ci95.lo, b.stddev_ci95.lo, "σ interval");
}

// Jitter-like values: integer ns, a few wild ones (outliers), ties; and residual-like ones
// (fractions), so both shapes of series the report summarises are covered.
std::vector<double> jitter(std::size_t n, std::mt19937_64& rng, bool fractions = false) {
    std::normal_distribution<double> normal(3.0, 700.0);
    std::vector<double> v(n);
    for (double& x : v) {
        x = normal(rng);
        x = (fractions ? x : std::round(x)) + (rng() % 2000 == 0 ? 5e5 : 0.0);
    }
    return v;
}

// The reference: one value at a time, order statistics from sorted copies.
Summary reference(const std::vector<double>& v) {
    const std::size_t n = v.size();
    if (n == 0) {
        return finish_moments(0, 0, 0, 0, 0, 0);
    }
    BlockedSum sum;
    double lo = v[0];
    double hi = v[0];
    for (const double x : v) {
        sum.add(x);
        lo = std::min(lo, x);
        hi = std::max(hi, x);
    }
    const long double total = sum.total();
    const auto mean = static_cast<double>(total / static_cast<long double>(n));
    BlockedSum deviations;
    BlockedSum squares;
    for (const double x : v) {
        deviations.add((x - mean) * (x - mean));
        squares.add(x * x);
    }
    Summary s = finish_moments(n, lo, hi, total, deviations.total(), squares.total());
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    s.median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    std::vector<double> magnitudes(n);
    std::vector<double> distances(n);
    for (std::size_t i = 0; i < n; ++i) {
        magnitudes[i] = std::abs(v[i]);
        distances[i] = std::abs(v[i] - s.median);
    }
    std::sort(magnitudes.begin(), magnitudes.end());
    s.abs_percentiles = {quantile_sorted(magnitudes, 0.5),    quantile_sorted(magnitudes, 0.9),
                         quantile_sorted(magnitudes, 0.99),   quantile_sorted(magnitudes, 0.999),
                         quantile_sorted(magnitudes, 0.9999), magnitudes.back()};
    s.robust_stddev = mad_to_sigma * median_in_place(distances);
    return s;
}

// The series in blocks of the given sizes, over and over.
auto blocks_of(const std::vector<double>& v, std::vector<std::size_t> sizes) {
    return [&v, sizes](auto&& f) {
        std::size_t at = 0;
        for (std::size_t k = 0; at < v.size(); ++k) {
            const std::size_t count = std::min(sizes[k % sizes.size()], v.size() - at);
            f(v.data() + at, count);
            at += count;
        }
    };
}

std::vector<std::size_t> random_sizes(std::mt19937_64& rng) {
    std::vector<std::size_t> sizes(50);
    for (std::size_t& s : sizes) {
        s = 1 + rng() % 3000;
    }
    return sizes;
}

Summary summarised(const std::vector<double>& v, const std::vector<std::size_t>& sizes) {
    return summarize_series(blocks_of(v, sizes), v.size(), strided_sample(v),
                            v.size() <= sample_size)
        .summary;
}

TEST(StreamedSummary, AnyBlocksAndEitherKernelGiveTheBitsOfAPlainReference) {
    std::mt19937_64 rng(26);
    for (std::size_t n :
         {0UL, 1UL, 2UL, 3UL, 5UL, 1023UL, 1024UL, 1025UL, 65536UL, 65537UL, 131073UL, 300001UL}) {
        for (const bool fractions : {false, true}) {
            const auto v = jitter(n, rng, fractions);
            const Summary expected = reference(v);
            for (const bool baseline : {false, true}) {
                force_baseline_lanes(baseline);
                SCOPED_TRACE(::testing::Message() << "n = " << n << (baseline ? ", baseline" : ""));
                expect_same(summarised(v, {kernel_block}), expected);
                expect_same(summarised(v, random_sizes(rng)), expected);
                if (n <= 5000) {
                    expect_same(summarised(v, {1}), expected);
                }
            }
            force_baseline_lanes(false);
        }
    }
}

// A sample from another series brackets the wrong values: the widening passes must still find
// every order statistic exactly.
TEST(StreamedSummary, AMisleadingSampleCostsPassesButNotExactness) {
    std::mt19937_64 rng(7);
    const auto v = jitter(200001, rng);
    std::vector<double> wrong = strided_sample(v);
    for (double& x : wrong) {
        x = x * 3.0 + 1000.0;
    }
    const Summary s =
        summarize_series(blocks_of(v, {kernel_block}), v.size(), std::move(wrong), false).summary;
    expect_same(s, reference(v));
}

// The two series of one walk: every value, and those `keep` accepts, fed block by block, each
// block's kept values in runs (as the period jitter's walk feeds them).
template <typename Keep>
std::pair<Summary, Summary> one_walk(const std::vector<double>& v, Keep keep) {
    std::vector<double> kept_values;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (keep(i)) {
            kept_values.push_back(v[i]);
        }
    }
    auto walk = [&](auto&& both, auto&& all_only) {
        std::size_t i = 0;
        while (i < v.size()) {
            std::size_t end = i;
            while (end < v.size() && keep(end) == keep(i) && end - i < 700) {
                ++end;
            }
            if (keep(i)) {
                both(v.data() + i, end - i);
            } else {
                all_only(v.data() + i, end - i);
            }
            i = end;
        }
    };
    StreamedSummary a(v.size(), strided_sample(v), v.size() <= sample_size);
    StreamedMoments b(kept_values.size());
    auto all = [&](auto&& f) { walk(f, f); };
    a.begin_first();
    walk(
        [&](const double* x, std::size_t c) {
            a.first(x, c);
            b.first(x, c);
        },
        [&](const double* x, std::size_t c) { a.first(x, c); });
    a.end_first(all);
    b.end_first();
    a.begin_second();
    walk(
        [&](const double* x, std::size_t c) {
            a.second(x, c);
            b.second(x, c);
        },
        [&](const double* x, std::size_t c) { a.second(x, c); });
    a.end_second(all);
    return {a.summary(), b.summary()};
}

TEST(StreamedSummary, OneWalkForTwoSeriesGivesTheBitsOfEachSummarisedAlone) {
    std::mt19937_64 rng(26);
    for (std::size_t n : {2UL, 1000UL, 65536UL, 65600UL, 131073UL, 300001UL}) {
        const auto v = jitter(n, rng);
        // Drops about one value in 60, in runs of two (a pair either side of an outlier).
        auto keep = [](std::size_t i) { return i % 61 != 7 && i % 61 != 8; };
        const auto [all, kept] = one_walk(v, keep);
        std::vector<double> kept_values;
        for (std::size_t i = 0; i < n; ++i) {
            if (keep(i)) {
                kept_values.push_back(v[i]);
            }
        }
        SCOPED_TRACE(::testing::Message() << "n = " << n);
        expect_same(all, reference(v));
        expect_same(kept, moments_only(reference(kept_values)));
        EXPECT_EQ(all.count, n);
    }
}

TEST(StreamedSummary, ASeriesWithNoValueLeftIsTheEmptySummary) {
    std::mt19937_64 rng(3);
    const auto v = jitter(500, rng);
    const auto [all, none] = one_walk(v, [](std::size_t) { return false; });
    expect_same(all, reference(v));
    expect_same(none, moments_only(reference({})));
    EXPECT_EQ(none.count, 0U);
    EXPECT_TRUE(std::isnan(none.median));
}

// The series without outliers keep only their moments: the bits of the full summary's, and NaN
// for the order statistics (as a saved summary, which keeps only σ).
TEST(StreamedMoments, TheMomentsOfASeriesAreThoseOfItsFullSummaryAndNoOrderStatistic) {
    std::mt19937_64 rng(5);
    for (std::size_t n : {0UL, 1UL, 2UL, 1000UL, 65537UL, 300001UL}) {
        const auto v = jitter(n, rng);
        const Summary moments = summarize_moments(blocks_of(v, random_sizes(rng)), n);
        SCOPED_TRACE(::testing::Message() << "n = " << n);
        expect_same(moments, moments_only(reference(v)));
        EXPECT_TRUE(std::isnan(moments.median));
        EXPECT_TRUE(std::isnan(moments.robust_stddev));
        EXPECT_TRUE(std::isnan(moments.abs_percentiles.p99));
    }
}

}  // namespace
