// SPDX-License-Identifier: GPL-2.0-or-later
// The order statistics' samples are sorted by radix (sample_sort.hpp). The order must be
// std::sort's, to the bit, whatever the values: random bit patterns over every sign and
// exponent, integers in a narrow range (the usual phase), heavy duplicates, infinities,
// already sorted or reversed input, and every size around the switch from std::sort.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "stats/sample_sort.hpp"

namespace ppsbench::stats::detail {
namespace {

std::uint64_t bits_of(double v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

void expect_sorted_as_std_sort(std::vector<double> values) {
    std::vector<double> expected = values;
    std::sort(expected.begin(), expected.end());
    sort_sample(values);
    ASSERT_EQ(values.size(), expected.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        ASSERT_EQ(bits_of(values[i]), bits_of(expected[i]))
            << "position " << i << " of " << values.size() << ": " << values[i] << " vs "
            << expected[i];
    }
}

double random_finite(std::mt19937_64& rng) {
    for (;;) {
        const std::uint64_t b = rng();
        double v = 0;
        std::memcpy(&v, &b, sizeof v);
        if (std::isfinite(v) && v != 0.0) {
            return v;
        }
    }
}

TEST(SampleSort, OrdersAsStdSortDoesForEveryKindOfSample) {
    std::mt19937_64 rng(26);
    for (const std::size_t n :
         {0UL, 1UL, 2UL, 3UL, 2047UL, 2048UL, 2049UL, 10000UL, 65536UL, 131072UL}) {
        SCOPED_TRACE(::testing::Message() << "n = " << n);
        std::vector<double> any(n);
        std::vector<double> phase(n);
        std::vector<double> few(n);
        std::normal_distribution<double> jitter(0.0, 7000.0);
        for (std::size_t i = 0; i < n; ++i) {
            any[i] = random_finite(rng);
            phase[i] = std::round(jitter(rng)) + 0.0;  // as from int64: never −0
            few[i] = static_cast<double>(rng() % 3) - 1.0 + (rng() % 2 == 0 ? 0.5 : 0.0);
        }
        expect_sorted_as_std_sort(any);
        expect_sorted_as_std_sort(phase);
        expect_sorted_as_std_sort(few);
        std::vector<double> sorted = phase;
        std::sort(sorted.begin(), sorted.end());
        expect_sorted_as_std_sort(sorted);
        std::reverse(sorted.begin(), sorted.end());
        expect_sorted_as_std_sort(sorted);
        expect_sorted_as_std_sort(std::vector<double>(n, 123.25));
        if (n >= 4) {
            phase[0] = std::numeric_limits<double>::infinity();
            phase[n / 2] = -std::numeric_limits<double>::infinity();
            phase[n - 1] = std::numeric_limits<double>::max();
            phase[1] = std::numeric_limits<double>::denorm_min();
            expect_sorted_as_std_sort(phase);
        }
    }
}

// −0 and +0 are equal to std::sort, which may put them in either order; the radix puts −0
// first. Either way the values are in order and none is lost.
TEST(SampleSort, KeepsBothZerosInOrder) {
    std::vector<double> values;
    for (int i = 0; i < 5000; ++i) {
        values.push_back(i % 3 == 0 ? -0.0 : (i % 3 == 1 ? 0.0 : -1.0 * (i % 7)));
    }
    const auto negative_zeros = std::count_if(values.begin(), values.end(),
                                              [](double v) { return v == 0.0 && std::signbit(v); });
    sort_sample(values);
    EXPECT_TRUE(std::is_sorted(values.begin(), values.end()));
    EXPECT_EQ(std::count_if(values.begin(), values.end(),
                            [](double v) { return v == 0.0 && std::signbit(v); }),
              negative_zeros);
    const auto first_zero = std::find(values.begin(), values.end(), 0.0);
    ASSERT_NE(first_zero, values.end());
    EXPECT_TRUE(std::signbit(*first_zero));
}

}  // namespace
}  // namespace ppsbench::stats::detail
