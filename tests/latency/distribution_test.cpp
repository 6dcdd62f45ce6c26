// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/latency/distribution.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace ppsbench::latency {
namespace {

TEST(Distribution, PercentilesInterpolateLikeNumpy) {
    // numpy.percentile([1, 2, 3, 4, 10], [50, 90, 99]) == [3, 7.6, 9.76]
    const auto d = describe({10, 1, 4, 2, 3});
    EXPECT_DOUBLE_EQ(d.p50, 3.0);
    EXPECT_DOUBLE_EQ(d.p90, 7.6);
    EXPECT_DOUBLE_EQ(d.p99, 9.76);
}

TEST(Distribution, DescribeGivesSummaryPercentilesAndHistogram) {
    std::vector<double> values(1000);
    std::iota(values.begin(), values.end(), 0.0);  // 0..999 ns, shuffled order does not matter
    std::swap(values[0], values[999]);
    const auto d = describe(values);
    EXPECT_EQ(d.summary.count, 1000U);
    EXPECT_DOUBLE_EQ(d.summary.mean, 499.5);
    EXPECT_DOUBLE_EQ(d.p50, 499.5);
    EXPECT_DOUBLE_EQ(d.p99, 989.01);
    EXPECT_DOUBLE_EQ(d.summary.max, 999.0);
    std::uint64_t total = d.histogram.underflow + d.histogram.overflow;
    for (const auto c : d.histogram.counts) {
        total += c;
    }
    EXPECT_EQ(total, 1000U);                 // every value lands in a bin or a tail bucket
    EXPECT_EQ(d.histogram.bin_width, 50.0);  // (994.5 − 4.5) / 20 = 49.5 → 50
}

TEST(Distribution, HistogramKeepsOutliersInTheOverflowBucket) {
    std::vector<double> values(1000, 10'000.0);
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] += static_cast<double>(i % 100) * 100.0;
    }
    values[5] = 250'000.0;  // one 250 µs wake-up
    const auto h = describe(values).histogram;
    EXPECT_EQ(h.overflow, 1U);
    EXPECT_GT(h.bin_width, 0.0);
    EXPECT_LE(h.lower_edge, 10'000.0);
}

}  // namespace
}  // namespace ppsbench::latency
