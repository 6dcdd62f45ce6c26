// SPDX-License-Identifier: GPL-2.0-or-later
// The latency loop against a scripted world: a clock that only moves when the loop sleeps or
// waits, an output whose edges appear on the sense source after a known delay, and a sense
// source that wakes the loop a known time after the event. Every recorded figure is checked
// exactly against the script.
#include "ppsbench/latency/latency_loop.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <set>

#include "ppsbench/core/error.hpp"

namespace ppsbench::latency {
namespace {

using core::ClockId;
using core::Edge;

constexpr std::int64_t realtime_offset = 1'767'225'600'000'000'000LL;

struct World {
    std::int64_t t = 1'000'000'000;  // CLOCK_MONOTONIC now
    std::deque<core::Pulse> pending;
    std::vector<std::int64_t> irq_delay;   // per driven edge: drive → kernel timestamp
    std::vector<std::int64_t> wake_delay;  // per driven edge: timestamp → wake-up
    std::set<std::size_t> dropped;         // driven edges the input never sees
    std::set<std::size_t> bounced;         // driven edges that produce a second event
    std::size_t driven = 0;
    ClockId sense_clock = ClockId::monotonic;
    std::uint64_t seq[2] = {0, 0};
    std::int64_t on(ClockId c) const { return c == ClockId::realtime ? t + realtime_offset : t; }
};

class FakeClock final : public LoopClock {
  public:
    explicit FakeClock(World& w) : w_(w) {}
    std::int64_t now(ClockId c) override { return w_.on(c); }
    bool sleep_until(std::int64_t deadline) override {
        w_.t = std::max(w_.t, deadline) + 50;  // a 50 ns timer overshoot
        return true;
    }

  private:
    World& w_;
};

class FakeOutput final : public OutputLine {
  public:
    explicit FakeOutput(World& w) : w_(w) {}
    void set(bool high) override {
        if (high == level_) {
            return;
        }
        level_ = high;
        const std::size_t k = w_.driven++;
        w_.t += 100;  // set_value() itself takes 100 ns
        if (w_.dropped.count(k) != 0) {
            return;
        }
        const Edge edge = high ? Edge::assert_edge : Edge::clear_edge;
        const std::int64_t ts = w_.on(w_.sense_clock) + w_.irq_delay[k];
        w_.pending.push_back({++w_.seq[high ? 0 : 1], ts, edge});
        if (w_.bounced.count(k) != 0) {
            w_.pending.push_back({++w_.seq[high ? 0 : 1], ts + 10, edge});
        }
        last_ = k;
    }
    nlohmann::json details() const override { return nlohmann::json::object(); }
    std::size_t last_ = 0;

  private:
    World& w_;
    bool level_ = false;
};

class FakeSense final : public capture::PulseSource {
  public:
    FakeSense(World& w, FakeOutput& out, core::EdgeSelection edges) : w_(w), out_(out) {
        info_.spec = "gpio:fake:27";
        info_.kind = "gpio";
        info_.clock = w.sense_clock;
        info_.edges = edges;
    }
    capture::WaitResult wait(core::Duration timeout) override {
        if (!w_.pending.empty()) {
            const std::int64_t event_mono =
                w_.pending.front().timestamp_ns -
                (w_.sense_clock == ClockId::realtime ? realtime_offset : 0);
            w_.t = std::max(w_.t, event_mono + w_.wake_delay[out_.last_]);
            return capture::WaitResult::ready;
        }
        w_.t += timeout.count();
        return capture::WaitResult::timeout;
    }
    std::size_t read(std::span<core::Pulse> out) override {
        std::size_t n = 0;
        while (n < out.size() && !w_.pending.empty()) {
            if (core::selects(info_.edges, w_.pending.front().edge)) {
                out[n++] = w_.pending.front();
            }
            w_.pending.pop_front();
        }
        return n;
    }
    const capture::SourceInfo& info() const override { return info_; }

  private:
    World& w_;
    FakeOutput& out_;
    capture::SourceInfo info_;
};

class VectorSink final : public LatencySink {
  public:
    void write(const LatencyRecord& r) override { records.push_back(r); }
    std::vector<LatencyRecord> records;
};

void script(World& w, std::size_t edges, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<std::int64_t> irq(2'000, 40'000);
    std::uniform_int_distribution<std::int64_t> wake(5'000, 200'000);
    for (std::size_t k = 0; k < edges; ++k) {
        w.irq_delay.push_back(irq(random));
        w.wake_delay.push_back(wake(random));
    }
}

TEST(LatencyLoop, RecordsEachEdgeWithExactDelays) {
    World w;
    script(w, 64, 7);
    FakeClock clock(w);
    FakeOutput out(w);
    FakeSense sense(w, out, core::EdgeSelection::both);
    VectorSink sink;
    LatencyLimits limits;
    limits.count = 50;
    const auto progress = run_latency(out, sense, sink, limits, nullptr, clock);
    EXPECT_EQ(progress.stop_reason, capture::StopReason::count_reached);
    ASSERT_EQ(sink.records.size(), 50U);
    EXPECT_EQ(progress.edges_driven, 50U);
    EXPECT_EQ(progress.unseen_edges, 0U);
    for (std::size_t k = 0; k < sink.records.size(); ++k) {
        const auto& r = sink.records[k];
        // drive_ns is read before set_value(), which takes 100 ns in this world.
        EXPECT_EQ(r.drive_to_kernel_ns(), w.irq_delay[k] + 100) << k;
        EXPECT_EQ(r.kernel_to_wake_ns(), w.wake_delay[k]) << k;
        EXPECT_EQ(r.sensed.edge, k % 2 == 0 ? Edge::assert_edge : Edge::clear_edge);
    }
}

TEST(LatencyLoop, KeepsTheCadenceOnAbsoluteDeadlines) {
    World w;
    script(w, 32, 3);
    FakeClock clock(w);
    FakeOutput out(w);
    FakeSense sense(w, out, core::EdgeSelection::both);
    VectorSink sink;
    LatencyLimits limits;
    limits.count = 20;
    run_latency(out, sense, sink, limits, nullptr, clock);
    for (std::size_t k = 1; k < sink.records.size(); ++k) {
        // Deadlines advance by exactly the interval (10 ms); the fixed 50 ns overshoot cancels.
        EXPECT_EQ(sink.records[k].drive_ns - sink.records[k - 1].drive_ns, 10'000'000) << k;
    }
}

TEST(LatencyLoop, PpsLikeSenseOnRealtimeWithAssertOnly) {
    World w;
    w.sense_clock = ClockId::realtime;
    script(w, 64, 11);
    FakeClock clock(w);
    FakeOutput out(w);
    FakeSense sense(w, out, core::EdgeSelection::assert_only);
    VectorSink sink;
    LatencyLimits limits;
    limits.count = 10;
    const auto progress = run_latency(out, sense, sink, limits, nullptr, clock);
    ASSERT_EQ(sink.records.size(), 10U);
    EXPECT_EQ(progress.edges_driven, 19U);  // the falling edges are driven, not waited for
    for (std::size_t i = 0; i < sink.records.size(); ++i) {
        const std::size_t k = 2 * i;
        EXPECT_EQ(sink.records[i].drive_to_kernel_ns(), w.irq_delay[k] + 100);
        EXPECT_GT(sink.records[i].drive_ns, realtime_offset) << "times are on CLOCK_REALTIME";
    }
}

TEST(LatencyLoop, CountsUnseenEdgesAndBounces) {
    World w;
    script(w, 64, 5);
    w.dropped = {4, 9};
    w.bounced = {6};
    FakeClock clock(w);
    FakeOutput out(w);
    FakeSense sense(w, out, core::EdgeSelection::both);
    VectorSink sink;
    LatencyLimits limits;
    limits.count = 20;
    const auto progress = run_latency(out, sense, sink, limits, nullptr, clock);
    EXPECT_EQ(progress.unseen_edges, 2U);
    EXPECT_EQ(progress.stray_events, 1U);
    EXPECT_EQ(progress.edges_driven, 22U);
    EXPECT_EQ(sink.records.size(), 20U);
}

TEST(LatencyLoop, NoWireIsAnInputErrorNamingTheSense) {
    World w;
    script(w, 16, 1);
    for (std::size_t k = 0; k < 16; ++k) {
        w.dropped.insert(k);
    }
    FakeClock clock(w);
    FakeOutput out(w);
    FakeSense sense(w, out, core::EdgeSelection::both);
    VectorSink sink;
    try {
        run_latency(out, sense, sink, LatencyLimits{}, nullptr, clock);
        FAIL();
    } catch (const core::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("gpio:fake:27: no event for 3 driven edges"),
                  std::string::npos)
            << e.what();
    }
}

TEST(LatencyLoop, StopsOnTheFlagAndOnDuration) {
    World w;
    script(w, 256, 2);
    FakeClock clock(w);
    FakeOutput out(w);
    FakeSense sense(w, out, core::EdgeSelection::both);
    VectorSink sink;
    LatencyLimits limits;
    limits.duration = std::chrono::milliseconds{105};
    auto progress = run_latency(out, sense, sink, limits, nullptr, clock);
    EXPECT_EQ(progress.stop_reason, capture::StopReason::duration_elapsed);
    EXPECT_NEAR(static_cast<double>(sink.records.size()), 10.0, 1.0);

    const volatile bool stop = true;
    progress = run_latency(out, sense, sink, LatencyLimits{}, &stop, clock);
    EXPECT_EQ(progress.stop_reason, capture::StopReason::interrupted);
}

}  // namespace
}  // namespace ppsbench::latency
