// SPDX-License-Identifier: GPL-2.0-or-later
// StreamedSummary (streamed_summary.hpp) is summarize_series() cut at its passes, so that one
// walk over a series feeds several summaries (the period jitter with and without outliers).
// It must give the very bits summarize_series() gives each series alone, on both sides of the
// 65 536-value sample where the bracketed selection takes over, and when a series is empty.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

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
}

// Jitter-like values: integer ns, a few wild ones (outliers), ties.
std::vector<double> jitter(std::size_t n, std::mt19937_64& rng) {
    std::normal_distribution<double> normal(3.0, 700.0);
    std::vector<double> v(n);
    for (double& x : v) {
        x = std::round(normal(rng)) + (rng() % 2000 == 0 ? 5e5 : 0.0);
    }
    return v;
}

// The two series of one walk: every value, and those `keep` accepts; fed together.
template <typename Keep>
std::pair<Summary, Summary> one_walk(const std::vector<double>& v, Keep keep) {
    auto pairs = [&](auto&& f) {
        for (std::size_t i = 0; i < v.size(); ++i) {
            f(v[i], !keep(i));
        }
    };
    auto all = [&](auto&& f) { pairs([&f](double x, bool) { f(x); }); };
    auto kept = [&](auto&& f) {
        pairs([&f](double x, bool dropped) {
            if (!dropped) {
                f(x);
            }
        });
    };
    SampleCollector all_sample;
    SampleCollector kept_sample;
    std::size_t kept_count = 0;
    pairs([&](double x, bool dropped) {
        all_sample.add(x);
        if (!dropped) {
            kept_sample.add(x);
            ++kept_count;
        }
    });
    const bool all_whole = all_sample.whole();
    const bool kept_whole = kept_sample.whole();
    StreamedSummary a(v.size(), all_sample.take(), all_whole);
    StreamedSummary b(kept_count, kept_sample.take(), kept_whole);
    a.begin_first();
    b.begin_first();
    pairs([&](double x, bool dropped) {
        a.first(x);
        if (!dropped) {
            b.first(x);
        }
    });
    a.end_first(all);
    b.end_first(kept);
    a.begin_second();
    b.begin_second();
    pairs([&](double x, bool dropped) {
        a.second(x);
        if (!dropped) {
            b.second(x);
        }
    });
    a.end_second(all);
    b.end_second(kept);
    return {a.summary(), b.summary()};
}

template <typename Keep>
Summary alone(const std::vector<double>& v, Keep keep) {
    std::size_t count = 0;
    auto visit = [&](auto&& f) {
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (keep(i)) {
                f(v[i]);
            }
        }
    };
    visit([&count](double) { ++count; });
    return summarize_series(visit, count).summary;
}

TEST(StreamedSummary, OneWalkForTwoSeriesGivesTheBitsOfEachSummarisedAlone) {
    std::mt19937_64 rng(26);
    for (std::size_t n : {2UL, 1000UL, 65536UL, 65600UL, 131073UL, 300001UL}) {
        const auto v = jitter(n, rng);
        // Drops about one value in 60, in runs of two (a pair either side of an outlier).
        auto keep = [](std::size_t i) { return i % 61 != 7 && i % 61 != 8; };
        const auto [all, kept] = one_walk(v, keep);
        SCOPED_TRACE(::testing::Message() << "n = " << n);
        expect_same(all, alone(v, [](std::size_t) { return true; }));
        expect_same(kept, alone(v, keep));
        EXPECT_EQ(all.count, n);
        EXPECT_EQ(kept.count, alone(v, keep).count);
    }
}

TEST(StreamedSummary, ASeriesWithNoValueLeftIsTheEmptySummary) {
    std::mt19937_64 rng(3);
    const auto v = jitter(500, rng);
    const auto [all, none] = one_walk(v, [](std::size_t) { return false; });
    expect_same(all, alone(v, [](std::size_t) { return true; }));
    expect_same(none, alone(v, [](std::size_t) { return false; }));
    EXPECT_EQ(none.count, 0U);
    EXPECT_TRUE(std::isnan(none.median));
}

// The series without outliers keep only their moments: the bits summarize_series() gives those
// figures, and NaN for the order statistics (as a saved summary, which keeps only σ).
TEST(StreamedMoments, TheMomentsOfASeriesAreThoseOfItsFullSummaryAndNoOrderStatistic) {
    std::mt19937_64 rng(5);
    for (std::size_t n : {0UL, 1UL, 2UL, 1000UL, 65537UL, 300001UL}) {
        const auto v = jitter(n, rng);
        auto visit = [&v](auto&& f) {
            for (double x : v) {
                f(x);
            }
        };
        const Summary moments = summarize_moments(visit, n);
        SCOPED_TRACE(::testing::Message() << "n = " << n);
        expect_same(moments, moments_only(summarize_series(visit, n).summary));
        expect_same_bits(moments.stddev_ci95.lo, summarize_series(visit, n).summary.stddev_ci95.lo,
                         "σ interval");
        EXPECT_TRUE(std::isnan(moments.median));
        EXPECT_TRUE(std::isnan(moments.robust_stddev));
        EXPECT_TRUE(std::isnan(moments.abs_percentiles.p99));
    }
}

}  // namespace
