// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/capture/pulse_source.hpp"
#include "ppsbench/latency/clocks.hpp"
#include "ppsbench/latency/output_line.hpp"

namespace ppsbench::latency {

// One driven edge as the sense path saw it. All three times are on the sense source's clock
// (CLOCK_MONOTONIC for a GPIO line, CLOCK_REALTIME for a PPS device), so differences are exact.
struct LatencyRecord {
    core::Pulse sensed;         // the kernel's event: sequence, edge, timestamp
    std::int64_t drive_ns = 0;  // read just before the output was set
    std::int64_t wake_ns = 0;   // read just after the blocking wait returned with the event

    // (a) what the kernel's path adds before it takes the timestamp (a threaded handler's
    // wake-up shows here), plus the output's own set_value() cost.
    std::int64_t drive_to_kernel_ns() const { return sensed.timestamp_ns - drive_ns; }
    // (b) from the kernel's timestamp to this process running again.
    std::int64_t kernel_to_wake_ns() const { return wake_ns - sensed.timestamp_ns; }
};

// The extra capture-file columns a latency record adds after timestamp_ns, in this order.
inline constexpr std::array<std::string_view, 2> record_columns{"drive_ns", "wake_ns"};

class LatencySink {
  public:
    virtual ~LatencySink() = default;
    virtual void write(const LatencyRecord& record) = 0;
};

struct LatencyLimits {
    std::optional<std::uint64_t> count;                       // measured edges
    std::optional<core::Duration> duration;                   // on CLOCK_MONOTONIC
    core::Duration interval = std::chrono::milliseconds{10};  // between driven edges
    // Driven edges the sense source must report before the first one may go unseen: after this
    // many with no event at all, the wiring is wrong and the loop says so (core::InputError).
    std::uint64_t silent_edges_allowed = 3;
};

struct LatencyProgress {
    std::uint64_t edges_driven = 0;
    std::uint64_t records = 0;
    // Driven edges the sense path should have seen but did not report within the interval.
    std::uint64_t unseen_edges = 0;
    // Events that matched no driven edge (a bounce, an edge from before the run, noise).
    std::uint64_t stray_events = 0;
    core::Duration elapsed{0};
    capture::StopReason stop_reason = capture::StopReason::end_of_stream;
};

// The loopback loop: on a fixed cadence (absolute deadlines on CLOCK_MONOTONIC) toggle the
// output; for each edge the sense source captures, read the sense clock, set the line, block in
// the sense source's wait, read the clock again, and record the event that matches the edge.
// Edges the sense source does not select (e.g. a PPS device capturing assert only) are driven
// but not waited for. Nothing is allocated per edge. Throws core::InputError when the first
// `silent_edges_allowed` edges all go unseen (no jumper wire, wrong line).
LatencyProgress run_latency(OutputLine& drive, capture::PulseSource& sense, LatencySink& sink,
                            const LatencyLimits& limits, capture::StopFlag stop, LoopClock& clock);

}  // namespace ppsbench::latency
