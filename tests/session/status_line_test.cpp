// SPDX-License-Identifier: GPL-2.0-or-later
// The live status line on a terminal: one line for a single run, one per path for a two-path
// run, each path's drawn by its own thread in one write that leaves the cursor where it was;
// its time and plan as docs/cli.md shows it: "2m 13s / 1h 00m 00s  pulses 133".
#include "ppsbench/session/status_line.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "ppsbench/capture/source_factory.hpp"

namespace ppsbench::session {
namespace {

// What a stream received, read back from a temporary file.
std::string written(std::FILE* stream) {
    std::fflush(stream);
    std::rewind(stream);
    std::string text;
    for (int c = std::fgetc(stream); c != EOF; c = std::fgetc(stream)) {
        text.push_back(static_cast<char>(c));
    }
    return text;
}

std::vector<core::Pulse> pulses(capture::PulseSource& source, std::size_t n) {
    std::vector<core::Pulse> out(n);
    std::size_t got = 0;
    while (got < n && source.wait(std::chrono::seconds(1)) == capture::WaitResult::ready) {
        got += source.read(std::span(out).subspan(got));
    }
    out.resize(got);
    return out;
}

TEST(StatusLine, ASingleRunsLineHasNoPathNameAndRedrawsInPlace) {
    auto source = capture::open_source("sim:hardirq", {});
    std::FILE* stream = std::tmpfile();
    ASSERT_NE(stream, nullptr);
    StatusLine line(stream, source->info(), {});
    const auto batch = pulses(*source, 3);
    capture::CaptureProgress progress;
    progress.pulses = batch.size();
    line.update(batch, progress);
    line.finish();
    const auto text = written(stream);
    EXPECT_EQ(text.rfind("\rSIMULATED  ", 0), 0U) << text;
    EXPECT_TRUE(text.ends_with("\x1b[K\r\x1b[K")) << "cleared at the end";
    std::fclose(stream);
}

TEST(StatusLine, TwoPathsDrawOneNamedLineEachAndPathBsLeavesTheCursorOnPathAs) {
    auto a_source = capture::open_source("sim:hardirq", {});
    auto b_source = capture::open_source("sim:threaded", {});
    std::FILE* stream = std::tmpfile();
    ASSERT_NE(stream, nullptr);
    StatusLine a(stream, a_source->info(), {}, nullptr, StatusRow{.name = "A", .row = 0});
    StatusLine b(stream, b_source->info(), {}, nullptr, StatusRow{.name = "B", .row = 1});
    capture::CaptureProgress progress;
    EXPECT_EQ(a.render(progress).rfind("A  SIMULATED  ", 0), 0U) << a.render(progress);
    EXPECT_EQ(b.render(progress).rfind("B  SIMULATED  ", 0), 0U) << b.render(progress);

    const auto batch = pulses(*b_source, 3);
    progress.pulses = batch.size();
    b.update(batch, progress);
    const auto text = written(stream);
    // Down one line, the text, erase to its end, up again, back to the start: one write.
    EXPECT_EQ(text, "\r\n" + b.render(progress) + "\x1b[K\x1b[A\r") << text;
    std::fclose(stream);
}

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
