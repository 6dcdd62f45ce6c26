// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/clock.hpp"

#include <ctime>

#include "ppsbench/core/duration.hpp"

namespace ppsbench::core {

std::int64_t now_ns(ClockId clock) {
    timespec ts{};
    clock_gettime(clock == ClockId::monotonic ? CLOCK_MONOTONIC : CLOCK_REALTIME, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * ns_per_second + ts.tv_nsec;
}

}  // namespace ppsbench::core
