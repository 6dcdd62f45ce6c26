// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>

#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/pulse.hpp"

namespace ppsbench::latency {

// CLOCK_REALTIME − CLOCK_MONOTONIC at one moment, from bracketing reads: monotonic, realtime,
// monotonic. The realtime read happened somewhere inside the bracket, so the offset is exact to
// within ±bracket_ns / 2 (tens of ns with the vDSO; more if the thread was preempted between
// the reads).
struct ClockOffset {
    std::int64_t realtime_minus_monotonic_ns = 0;
    std::int64_t bracket_ns = 0;
};

ClockOffset offset_from_bracket(std::int64_t monotonic_before_ns, std::int64_t realtime_ns,
                                std::int64_t monotonic_after_ns);

// The tightest of `tries` bracketed samples: a preempted bracket is wide and is discarded.
ClockOffset sample_clock_offset(int tries = 3);

// A CLOCK_MONOTONIC timestamp on CLOCK_REALTIME, given an offset sampled close to it in time.
// What that costs is in docs/latency.md: ±bracket/2, plus a whole step if CLOCK_REALTIME was
// stepped between the event and the sample (slewing moves both clocks alike).
inline std::int64_t monotonic_to_realtime(std::int64_t monotonic_ns, const ClockOffset& offset) {
    return monotonic_ns + offset.realtime_minus_monotonic_ns;
}

// What the latency loop reads and sleeps on. Virtual so tests can script time; the real one
// is SystemClock.
class LoopClock {
  public:
    virtual ~LoopClock() = default;
    virtual std::int64_t now(core::ClockId clock) = 0;
    // Sleeps until CLOCK_MONOTONIC reaches `deadline_ns`; false when a signal cut it short.
    virtual bool sleep_until(std::int64_t deadline_ns) = 0;
};

class SystemClock final : public LoopClock {
  public:
    std::int64_t now(core::ClockId clock) override { return now_ns(clock); }
    bool sleep_until(std::int64_t deadline_ns) override;
};

}  // namespace ppsbench::latency
