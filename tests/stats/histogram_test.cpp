// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/histogram.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "numpy_oracle.hpp"

namespace ppsbench::stats {
namespace {

TEST(Histogram, GivenWidthAndRangeCountUnderAndOverflow) {
    const std::vector<double> x = {-5, 0, 0.5, 1, 9.99, 10, 42};
    const Histogram h = make_histogram(x, {.bin_width = 2.0, .lower = 0.0, .upper = 10.0});
    EXPECT_EQ(h.lower_edge, 0.0);
    EXPECT_EQ(h.counts, (std::vector<std::uint64_t>{3, 0, 0, 0, 1}));
    EXPECT_EQ(h.underflow, 1u);
    EXPECT_EQ(h.overflow, 2u);  // 10 is the upper edge: bins are half-open
    EXPECT_EQ(h.total(), x.size());
}

TEST(Histogram, FreedmanDiaconisWidthLikeNumpy) {
    test::TestRandom rng(9);
    std::vector<double> x;
    for (int i = 0; i < 8000; ++i) {
        x.push_back(rng.normal(0, 100));
    }
    const Histogram h = make_histogram(x);
    // numpy.histogram_bin_edges(x, 'fd') uses 2·IQR·n^(−1/3) with the same quartiles.
    std::vector<double> sorted = x;
    std::sort(sorted.begin(), sorted.end());
    auto q = [&](double p) {
        const double pos = p * (sorted.size() - 1);
        const auto i = static_cast<std::size_t>(pos);
        return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
    };
    EXPECT_NEAR(h.bin_width, 2 * (q(0.75) - q(0.25)) / std::cbrt(8000.0), 1e-9);
    EXPECT_EQ(h.total(), x.size());
    EXPECT_EQ(h.underflow + h.overflow, 0u);
    EXPECT_LE(h.lower_edge, sorted.front());
    EXPECT_GT(h.upper_edge(), sorted.back());
}

TEST(Histogram, HeavyTailsGoToOverflowInsteadOfMillionsOfBins) {
    std::vector<double> x(10000, 0.0);
    test::TestRandom rng(10);
    for (double& v : x) {
        v = rng.normal(0, 10);
    }
    x[17] = 5e6;  // one 5 ms latency
    HistogramOptions options;
    options.max_bins = 500;
    const Histogram h = make_histogram(x, options);
    EXPECT_LE(h.counts.size(), 500u);
    EXPECT_GE(h.overflow, 1u);
    EXPECT_EQ(h.total(), x.size());
}

TEST(Histogram, AllEqualValuesGetOneBin) {
    const Histogram h = make_histogram(std::vector<double>(10, 7.0));
    EXPECT_EQ(h.total(), 10u);
    EXPECT_EQ(h.counts.size(), 1u);
    EXPECT_TRUE(make_histogram({}).counts.empty());
}

TEST(Histogram, IntegerNanosecondsBinAsTheSameValuesInDouble) {
    // Latencies come as int64 ns: 70 000 of them (more than one sample's worth) with a tail.
    std::vector<std::int64_t> ns(70000);
    std::vector<double> as_double(ns.size());
    test::TestRandom rng(11);
    for (std::size_t i = 0; i < ns.size(); ++i) {
        ns[i] = std::llround(rng.normal(20000, 300)) + (i % 1000 == 0 ? 400000 : 0);
        as_double[i] = static_cast<double>(ns[i]);
    }
    const Histogram a = make_histogram_ns(ns);
    const Histogram b = make_histogram(as_double);
    EXPECT_EQ(a.lower_edge, b.lower_edge);
    EXPECT_EQ(a.bin_width, b.bin_width);
    EXPECT_EQ(a.counts, b.counts);
    EXPECT_EQ(a.underflow, b.underflow);
    EXPECT_EQ(a.overflow, b.overflow);
    EXPECT_EQ(a.total(), ns.size());
    EXPECT_TRUE(make_histogram_ns({}).counts.empty());
}

}  // namespace
}  // namespace ppsbench::stats
