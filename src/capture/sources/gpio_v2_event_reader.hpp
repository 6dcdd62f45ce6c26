// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <linux/gpio.h>
#include <array>
#include <optional>

#include "ppsbench/capture/pulse_source.hpp"

namespace ppsbench::capture {

// Per-edge sequence numbers from the kernel's per-line event counter (uAPI v2 `line_seqno`),
// with the meaning a PPS device's assert and clear sequences have: a gap is an edge the kernel
// saw that was never read (dropped from the request's full event buffer). line_seqno counts
// every event of the line, both edges when both are requested, unread ones included.
//   One edge requested: line_seqno is that edge's sequence as it is.
//   Both edges: each edge's events are counted, and the events between two read ones (a gap in
//   line_seqno) are given to the edges by alternation from the last edge read, as a signal's
//   edges alternate. Exact whenever the kernel's events alternate; where a glitch gave two of
//   one edge inside such a gap, one unread event's edge is a guess (a sequence off by one).
class EdgeSequences {
  public:
    explicit EdgeSequences(core::EdgeSelection requested)
        : both_(requested == core::EdgeSelection::both) {}
    std::uint64_t next(core::Edge edge, std::uint32_t line_seqno);

  private:
    bool both_;
    std::optional<std::uint32_t> last_seqno_;
    core::Edge last_edge_ = core::Edge::assert_edge;
    std::array<std::uint64_t, 2> counts_{};  // per edge: assert, clear
};

// Reads GPIO line events (uAPI v2 `struct gpio_v2_line_event`) from a libgpiod 2 line request's
// fd (gpiod_line_request_get_fd) in batches into a fixed buffer, then into the caller's: no
// allocation per edge, where libgpiod's edge-event buffer is a heap object and its C++ reader
// builds one more. Kept apart from the request, and needing only <linux/gpio.h>, so it is built
// and tested on a pipe on every release, libgpiod 1.6 ones included.
class GpioV2EventReader {
  public:
    GpioV2EventReader(int fd, core::EdgeSelection edges)
        : fd_(fd), edges_(edges), sequences_(edges) {}

    // Blocks in ppoll() until events are readable, a signal, or the timeout.
    WaitResult wait(core::Duration timeout);
    // Reads as many whole events as fit; throws core::MeasurementError if the line goes away.
    std::size_t read(std::span<core::Pulse> out, const std::string& what);

  private:
    int fd_;
    core::EdgeSelection edges_;
    EdgeSequences sequences_;
    std::array<gpio_v2_line_event, 64> raw_{};
};

}  // namespace ppsbench::capture
