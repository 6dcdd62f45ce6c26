// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/latency/clocks.hpp"

#include <cerrno>
#include <ctime>

#include "ppsbench/core/duration.hpp"

namespace ppsbench::latency {

ClockOffset offset_from_bracket(std::int64_t monotonic_before_ns, std::int64_t realtime_ns,
                                std::int64_t monotonic_after_ns) {
    const std::int64_t bracket = monotonic_after_ns - monotonic_before_ns;
    // The midpoint of the bracket is the best estimate of when the realtime read happened.
    const std::int64_t midpoint = monotonic_before_ns + bracket / 2;
    return {realtime_ns - midpoint, bracket};
}

ClockOffset sample_clock_offset(int tries) {
    ClockOffset best{};
    for (int i = 0; i < tries; ++i) {
        const std::int64_t before = core::now_ns(core::ClockId::monotonic);
        const std::int64_t realtime = core::now_ns(core::ClockId::realtime);
        const std::int64_t after = core::now_ns(core::ClockId::monotonic);
        const ClockOffset sample = offset_from_bracket(before, realtime, after);
        if (i == 0 || sample.bracket_ns < best.bracket_ns) {
            best = sample;
        }
    }
    return best;
}

bool SystemClock::sleep_until(std::int64_t deadline_ns) {
    const timespec deadline{static_cast<time_t>(deadline_ns / core::ns_per_second),
                            static_cast<long>(deadline_ns % core::ns_per_second)};
    // Absolute deadlines keep the drive cadence free of accumulated drift.
    return clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr) == 0;
}

}  // namespace ppsbench::latency
