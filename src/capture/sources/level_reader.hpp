// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: what the polled-edge reference (poll_source) reads, as interfaces, so its core is
// tested without hardware: a pin's level (a GPIO line value, a bit of a gpiomem register) and
// the clock it is bracketed with.

#include <cstdint>

namespace ppsbench::capture::detail {

// One read of the pin's level: true when high. Called in a busy loop: no allocation, no
// system call beyond the one read (an ioctl for a GPIO line, none for a mapped register).
class LevelReader {
  public:
    virtual ~LevelReader() = default;
    LevelReader() = default;
    LevelReader(const LevelReader&) = delete;
    LevelReader& operator=(const LevelReader&) = delete;
    virtual bool level() = 0;
};

// CLOCK_REALTIME, read on each side of every level read, and the sleep until a window opens.
class PollClock {
  public:
    virtual ~PollClock() = default;
    virtual std::int64_t now_ns() = 0;
    // False when a signal interrupted the sleep (Ctrl-C: the loop then checks whether to stop).
    virtual bool sleep_until(std::int64_t realtime_ns) = 0;
};

// The real clock: clock_gettime and an absolute clock_nanosleep on CLOCK_REALTIME.
PollClock& realtime_poll_clock();

}  // namespace ppsbench::capture::detail
