// SPDX-License-Identifier: GPL-2.0-or-later
// The status line's time and plan, as docs/cli.md shows it: "2m 13s / 1h 00m 00s  pulses 133".
#include <gtest/gtest.h>

#include <chrono>

#include "ppsbench/session/status_line.hpp"

namespace ppsbench::session {
namespace {

using namespace std::chrono_literals;

capture::SourceInfo device() {
    capture::SourceInfo source;
    source.spec = "pps:/dev/pps0";
    source.kind = "pps";
    return source;
}

std::string line_at(core::Duration elapsed, std::uint64_t pulses,
                    const capture::CaptureLimits& limits) {
    const StatusLine status(nullptr, device(), limits);
    capture::CaptureProgress progress;
    progress.elapsed = elapsed;
    progress.pulses = pulses;
    return status.render(progress);
}

TEST(StatusLine, ElapsedAndPlannedReadAsTheDocumentedClock) {
    capture::CaptureLimits limits;
    limits.duration = 1h;
    EXPECT_EQ(line_at(133s + 400ms, 133, limits).rfind("2m 13s / 1h 00m 00s  pulses 133  ", 0), 0U);
}

TEST(StatusLine, TheFirstRedrawShowsAClockNotNanoseconds) {
    capture::CaptureLimits limits;
    limits.duration = 10min;
    const auto line = line_at(29ns, 0, limits);
    EXPECT_EQ(line.rfind("0m 00s / 10m 00s  pulses 0  ", 0), 0U) << line;
    EXPECT_EQ(line.find(" ns"), std::string::npos) << line;
}

TEST(StatusLine, APlannedCountStandsBesideThePulsesCaptured) {
    capture::CaptureLimits limits;
    limits.count = 4;
    const auto line = line_at(29ns, 1, limits);
    EXPECT_EQ(line.rfind("0m 00s  pulses 1 / 4  missed 0", 0), 0U) << line;
}

TEST(StatusLine, RunsOfAnHourOrMoreShowHours) {
    EXPECT_EQ(line_at(3h + 2min + 5s, 10925, {}).rfind("3h 02m 05s  pulses 10925  ", 0), 0U);
}

}  // namespace
}  // namespace ppsbench::session
