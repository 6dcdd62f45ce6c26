// SPDX-License-Identifier: GPL-2.0-or-later
// The one 1-2-5 rounding rule (plot ticks, the text histogram's bins, the latency bins).
#include "ppsbench/core/round_number.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace ppsbench::core {
namespace {

TEST(RoundUp125, GivesTheSmallestRoundStepNotBelowTheValue) {
    EXPECT_EQ(round_up_1_2_5(1), 1);
    EXPECT_EQ(round_up_1_2_5(1.01), 2);
    EXPECT_EQ(round_up_1_2_5(2), 2);
    EXPECT_EQ(round_up_1_2_5(2.5), 5);
    EXPECT_EQ(round_up_1_2_5(5), 5);
    EXPECT_EQ(round_up_1_2_5(7), 10);
    EXPECT_EQ(round_up_1_2_5(10), 10);
    EXPECT_EQ(round_up_1_2_5(340), 500);
    EXPECT_EQ(round_up_1_2_5(1999), 2000);
    EXPECT_EQ(round_up_1_2_5(123'456'789), 200'000'000);
    EXPECT_DOUBLE_EQ(round_up_1_2_5(0.03), 0.05);
    EXPECT_DOUBLE_EQ(round_up_1_2_5(0.15), 0.2);
}

// Properties over values spread evenly in log from 1e-3 to 1e12: the step is not below the
// value, at most 2.5 times it (just above 2 rounds to 5), a mantissa of 1, 2 or 5, rounding it
// again changes nothing, and a larger value never gets a smaller step.
TEST(RoundUp125, IsARoundStepJustAboveTheValue) {
    std::mt19937_64 random(21);
    std::uniform_real_distribution<double> exponent(-3.0, 12.0);
    for (int i = 0; i < 10'000; ++i) {
        const double raw = std::pow(10.0, exponent(random));
        const double step = round_up_1_2_5(raw);
        ASSERT_GE(step, raw);
        ASSERT_LE(step, 2.5 * raw);
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
        ASSERT_TRUE(std::fabs(mantissa - 1) < 1e-9 || std::fabs(mantissa - 2) < 1e-9 ||
                    std::fabs(mantissa - 5) < 1e-9)
            << raw << " → " << step;
        ASSERT_EQ(round_up_1_2_5(step), step) << raw;
        ASSERT_GE(round_up_1_2_5(raw * 1.001), step) << raw;
    }
}

}  // namespace
}  // namespace ppsbench::core
