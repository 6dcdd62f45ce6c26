// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>

#include "ppsbench/core/pulse.hpp"

namespace ppsbench::core {

// The kernel's clocks in integer nanoseconds (clock_gettime through the vDSO: no system call,
// no allocation), for deadlines, pacing and the timestamps ppsbench takes itself.
std::int64_t now_ns(ClockId clock);
inline std::int64_t monotonic_now_ns() {
    return now_ns(ClockId::monotonic);
}
inline std::int64_t realtime_now_ns() {
    return now_ns(ClockId::realtime);
}

}  // namespace ppsbench::core
