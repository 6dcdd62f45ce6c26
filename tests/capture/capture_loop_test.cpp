// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/capture/capture_loop.hpp"

#include <gtest/gtest.h>

#include "fake_source.hpp"
#include "ppsbench/capture/source_factory.hpp"

namespace ppsbench::capture {
namespace {

using namespace std::chrono_literals;
using fakes::ScriptedSource;
using fakes::Step;
using fakes::VectorSink;

core::Pulse pulse(std::uint64_t seq, std::int64_t second) {
    return {seq, second * 1'000'000'000LL, core::Edge::assert_edge};
}

TEST(CaptureLoop, StopsAtTheRequestedCount) {
    ScriptedSource source({{WaitResult::ready, {pulse(1, 0), pulse(2, 1), pulse(3, 2)}},
                           {WaitResult::ready, {pulse(4, 3)}}});
    VectorSink sink;
    CaptureLimits limits;
    limits.count = 2;
    const auto progress = run_capture(source, sink, limits, nullptr);
    EXPECT_EQ(progress.pulses, 2U);
    EXPECT_EQ(progress.stop_reason, StopReason::count_reached);
    EXPECT_EQ(sink.pulses_.size(), 2U);
}

TEST(CaptureLoop, CountsSequenceGapsAsMissedPulses) {
    ScriptedSource source({{WaitResult::ready, {pulse(1, 0), pulse(2, 1), pulse(5, 4)}},
                           {WaitResult::ready, {pulse(6, 5)}}});
    VectorSink sink;
    const auto progress = run_capture(source, sink, {}, nullptr);
    EXPECT_EQ(progress.missed_pulses, 2U);
    EXPECT_EQ(progress.stop_reason, StopReason::end_of_stream);
}

TEST(CaptureLoop, TimeoutsMidRunAreCountedNotFatal) {
    ScriptedSource source({{WaitResult::ready, {pulse(1, 0)}},
                           {WaitResult::timeout, {}},
                           {WaitResult::timeout, {}},
                           {WaitResult::ready, {pulse(2, 3)}}});
    VectorSink sink;
    const auto progress = run_capture(source, sink, {}, nullptr);
    EXPECT_EQ(progress.timeouts, 2U);
    EXPECT_EQ(progress.pulses, 2U);
}

TEST(CaptureLoop, NoFirstPulseIsAnInputErrorSayingWhatToCheck) {
    std::deque<Step> silence(1000, Step{WaitResult::timeout, {}});
    ScriptedSource source(std::move(silence));
    VectorSink sink;
    CaptureLimits limits;
    limits.first_pulse_timeout = 0ns;
    EXPECT_THROW(run_capture(source, sink, limits, nullptr), core::InputError);
}

TEST(CaptureLoop, AStopRequestEndsTheRunKeepingEveryPulse) {
    bool stop = false;
    ScriptedSource source({{WaitResult::ready, {pulse(1, 0), pulse(2, 1)}},
                           {WaitResult::interrupted, {}},
                           {WaitResult::ready, {pulse(3, 2)}}});
    VectorSink sink;
    const auto progress =
        run_capture(source, sink, {}, &stop, [&](auto batch, const CaptureProgress&) {
            if (batch.size() == 2) {
                stop = true;  // as the SIGINT handler would
            }
        });
    EXPECT_EQ(progress.stop_reason, StopReason::interrupted);
    EXPECT_EQ(sink.pulses_.size(), 2U);
}

TEST(CaptureLoop, ADeviceFailingMidRunPropagatesAfterTheSinkHasEveryPulse) {
    ScriptedSource source(
        {{WaitResult::ready, {pulse(1, 0), pulse(2, 1)}}, {WaitResult::ready, {}, true}});
    VectorSink sink;
    EXPECT_THROW(run_capture(source, sink, {}, nullptr), core::MeasurementError);
    EXPECT_EQ(sink.pulses_.size(), 2U);
}

TEST(CaptureLoop, AnUnpacedSourceMeasuresDurationOnItsOwnPulses) {
    SourceOptions options;
    auto source = open_source("sim:hardirq", options);
    VectorSink sink;
    CaptureLimits limits;
    limits.duration = 10min;
    const auto progress = run_capture(*source, sink, limits, nullptr);
    EXPECT_EQ(progress.stop_reason, StopReason::duration_elapsed);
    EXPECT_EQ(progress.pulses, 600U);  // one per second, the first at t = 0
}

}  // namespace
}  // namespace ppsbench::capture
