// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <span>

#include "ppsbench/core/pulse.hpp"

namespace ppsbench::core {

// The most pulses one write() hands over: the capture loop reads into a buffer of this size, and
// sinks that keep per-pulse data beside the pulses (dual_run's time base) size theirs by it.
inline constexpr std::size_t max_pulses_per_write = 64;

// Where the capture loop hands pulses as they arrive (a capture file, a test's vector).
// Implementations must not lose a pulse they accepted: write() returns only once the pulses are
// durable enough to survive the process dying (for a file: in the kernel's page cache).
// A write() carries at most max_pulses_per_write pulses.
class PulseSink {
  public:
    virtual ~PulseSink() = default;
    virtual void write(std::span<const Pulse> pulses) = 0;
};

}  // namespace ppsbench::core
