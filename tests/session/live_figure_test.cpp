// SPDX-License-Identifier: GPL-2.0-or-later
// What the live views (status line, live Prometheus metrics) show per pulse.
#include "ppsbench/session/live_figure.hpp"

#include <gtest/gtest.h>

namespace ppsbench::session {
namespace {

capture::SourceInfo source(core::ClockId clock) {
    capture::SourceInfo info;
    info.clock = clock;
    info.period = core::Duration(1'000'000'000);
    return info;
}

// A realtime clock has a top of the second: every pulse, the first too, has a phase offset.
TEST(LiveFigure, OnARealtimeClockIsThePhaseOffset) {
    LiveFigure figure(source(core::ClockId::realtime));
    EXPECT_TRUE(figure.has_phase());
    EXPECT_EQ(figure.next(1'767'225'600'000'002'500), 2500.0);
    EXPECT_EQ(figure.next(1'767'225'600'999'999'000), -1000.0);
}

// A monotonic clock has none: the interval's distance from the period, from the second pulse.
TEST(LiveFigure, OnAMonotonicClockIsThePeriodJitter) {
    LiveFigure figure(source(core::ClockId::monotonic));
    EXPECT_FALSE(figure.has_phase());
    EXPECT_EQ(figure.next(5'000'000'000), std::nullopt);
    EXPECT_EQ(figure.next(6'000'000'300), 300.0);
    EXPECT_EQ(figure.next(6'999'999'900), -400.0);
}

}  // namespace
}  // namespace ppsbench::session
