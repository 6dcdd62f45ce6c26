// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/latency/clocks.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace ppsbench::latency {
namespace {

TEST(Clocks, BracketUsesTheMidpoint) {
    const auto o = offset_from_bracket(1000, 5'000'000'600, 1200);
    EXPECT_EQ(o.bracket_ns, 200);
    EXPECT_EQ(o.realtime_minus_monotonic_ns, 5'000'000'600 - 1100);
    EXPECT_EQ(monotonic_to_realtime(2000, o), 2000 + 5'000'000'600 - 1100);
}

TEST(Clocks, SampledOffsetMatchesTheSystemClocks) {
    const auto o = sample_clock_offset();
    EXPECT_GE(o.bracket_ns, 0);
    EXPECT_LT(o.bracket_ns, 1'000'000) << "three preempted brackets in a row";
    // Independently: a realtime read converted back must land within a few µs of monotonic.
    const std::int64_t mono = core::now_ns(core::ClockId::monotonic);
    const std::int64_t real = core::now_ns(core::ClockId::realtime);
    EXPECT_LT(std::llabs(monotonic_to_realtime(mono, o) - real), 5'000'000);
}

TEST(Clocks, SystemClockSleepsUntilAnAbsoluteDeadline) {
    SystemClock clock;
    const std::int64_t start = clock.now(core::ClockId::monotonic);
    EXPECT_TRUE(clock.sleep_until(start + 2'000'000));
    EXPECT_GE(clock.now(core::ClockId::monotonic), start + 2'000'000);
}

}  // namespace
}  // namespace ppsbench::latency
