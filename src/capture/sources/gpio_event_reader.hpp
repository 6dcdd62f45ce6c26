// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <linux/gpio.h>
#include <array>

#include "ppsbench/capture/pulse_source.hpp"

namespace ppsbench::capture {

// Reads GPIO line events (uAPI v1 `struct gpioevent_data`) from a line's event fd in batches,
// straight into the caller's buffer: no allocation per event, unlike libgpiod 1.6's
// event_read_multiple(), which returns a fresh std::vector. Kept apart from the libgpiod line
// request so it can be tested on a pipe where no GPIO chip exists.
class GpioEventReader {
  public:
    explicit GpioEventReader(int fd, core::EdgeSelection edges) : fd_(fd), edges_(edges) {}

    // Blocks in ppoll() until events are readable, a signal, or the timeout.
    WaitResult wait(core::Duration timeout);
    // Reads as many whole events as fit; throws core::MeasurementError if the line goes away.
    std::size_t read(std::span<core::Pulse> out, const std::string& what);

    // v1 events carry no sequence number: the reader numbers the events it receives, per edge,
    // so missed pulses on a GPIO source show only as time gaps.
    std::uint64_t events_read() const { return assert_count_ + clear_count_; }

  private:
    int fd_;
    core::EdgeSelection edges_;
    std::uint64_t assert_count_ = 0;
    std::uint64_t clear_count_ = 0;
    std::array<gpioevent_data, 64> raw_{};
};

namespace detail {

// What both event readers (uAPI v1 and v2) do with a line's fd: ppoll() for events, and one
// read(2) of up to `records` whole records of `size` bytes into `into`, returning how many came
// (0 when none were ready). Throws core::MeasurementError naming `what` if the line goes away.
WaitResult wait_for_line_events(int fd, core::Duration timeout);
std::size_t read_line_events(int fd, void* into, std::size_t records, std::size_t size,
                             const std::string& what);

}  // namespace detail

}  // namespace ppsbench::capture
