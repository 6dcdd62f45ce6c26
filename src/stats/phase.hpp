// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: analyze()'s phase stage. The phase series every other figure is computed from,
// and the rule that recomputes it from the timestamps when it is needed again (for the
// stability grid) instead of keeping a second 8-byte-per-pulse buffer.
//
// On a realtime clock the phase is the offset in the period-long window centred on the run's
// median offset, so that a source sitting near ±P/2 is not torn in two (plain offsets would
// jump by P between samples); for a source anywhere near the top of the period this equals
// t − P·round(t/P). It is then unwrapped (PhaseUnwrapper) so that a clock step of P/2 or more
// is one step; after the steps are removed every offset is back in the window. On a free-running
// clock it is t_i − t_0 − k_i·P against the nominal grid, exact in int64.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "phase_buffer.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/stats/events.hpp"
#include "ppsbench/stats/stability.hpp"
#include "selection.hpp"
#include "train_detail.hpp"
#include "whole_kernels.hpp"

namespace ppsbench::stats::detail {

// phase_offset_ns(t − c, P) for timestamps that arrive about a period apart, without the
// 64-bit division per pulse (tens of cycles; three passes over millions of pulses): the floor
// remainder of t − c is carried from the previous timestamp and corrected by whole periods. A
// jump of more than a few periods (a gap, the first pulse) takes the division. Same integers,
// so the same offsets to the bit.
class PhaseFolder {
  public:
    PhaseFolder(std::int64_t centre, std::int64_t period_ns)
        : c_(centre),
          p_(period_ns),
          near_(period_ns <= std::numeric_limits<std::int64_t>::max() / 8 ? 4 * period_ns : 0) {}

    [[gnu::always_inline]] std::int64_t operator()(std::int64_t timestamp) {
        std::int64_t d = 0;
        std::int64_t r = 0;
        if (have_ && !__builtin_sub_overflow(timestamp, last_, &d) && d > -near_ && d < near_) {
            r = r_ + d;  // |r| < 5P: no overflow (near_ is 0 for a huge period)
            while (r >= p_) {
                r -= p_;
            }
            while (r < 0) {
                r += p_;
            }
        } else {
            r = floor_mod(timestamp) - floor_mod(c_);  // (t − c) mod P; t − c may overflow
            if (r < 0) {
                r += p_;
            }
        }
        have_ = true;
        last_ = timestamp;
        r_ = r;
        // As phase_offset_ns: ties (exactly half a period) go positive.
        if (r > p_ / 2 || (r == p_ / 2 && p_ % 2 != 0)) {
            r -= p_;
        }
        return c_ + r;
    }

  private:
    std::int64_t floor_mod(std::int64_t x) const {
        const std::int64_t r = x % p_;
        return r < 0 ? r + p_ : r;
    }

    std::int64_t c_;
    std::int64_t p_;
    std::int64_t near_;  // |t − last| below this takes the carry
    std::int64_t last_ = 0;
    std::int64_t r_ = 0;  // floor remainder of last_ − c_, in [0, P)
    bool have_ = false;
};

// Consecutive offsets differ by less than half a period unless the clock stepped: a step of
// P/2 or more (without the sequence evidence that takes it out of the timestamps first) would
// otherwise tear the folded series in two, every later offset landing either side of c ± P/2
// by its jitter. Unwrapping keeps each difference in (−P/2, P/2], so such a step is one step,
// of its size modulo P (±P/2 comes out as +P/2); a whole-period step stays invisible.
class PhaseUnwrapper {
  public:
    explicit PhaseUnwrapper(std::int64_t period_ns) : p_(period_ns) {}
    [[gnu::always_inline]] std::int64_t operator()(std::int64_t folded) {
        std::int64_t v = folded + wrap_;
        if (have_) {
            const std::int64_t d = v - previous_;
            if (2 * d > p_) {
                wrap_ -= p_;
                v -= p_;
            } else if (2 * d <= -p_) {
                wrap_ += p_;
                v += p_;
            }
        }
        have_ = true;
        previous_ = v;
        return v;
    }

  private:
    std::int64_t p_;
    std::int64_t wrap_ = 0;
    std::int64_t previous_ = 0;
    bool have_ = false;
};

// How the phase of a selected pulse follows from its timestamp (see the top of this file).
struct PhaseRule {
    bool realtime = true;
    std::int64_t centre = 0;  // realtime: the centre of the offset window
    std::int64_t period_ns = 0;

    // f(i, k_i, phase_i) for every selected pulse in order, with the clock steps in `removed`
    // (ascending index; empty when none are removed) subtracted as remove_steps() does.
    template <typename F>
    void for_each(const Selection& selection, const PulseIndex& index,
                  std::span<const Step> removed, F f) const {
        const TimestampColumn t{selection};
        const std::int64_t t0 = selection.size > 0 ? t[0] : 0;
        double shift = 0;
        std::size_t next = 0;
        PhaseFolder around(centre, period_ns);
        PhaseUnwrapper unwrap(period_ns);
        index.for_each([&](std::size_t i, std::int64_t ki) {
            double v = realtime ? static_cast<double>(unwrap(around(t[i])))
                                : static_cast<double>(t[i] - t0 - ki * period_ns);
            if (!removed.empty()) {
                while (next < removed.size() && removed[next].index == i) {
                    shift += removed[next].size_ns;
                    ++next;
                }
                v -= shift;
            }
            f(i, ki, v);
        });
    }
};

struct PhaseSeries {
    PhaseRule rule;
    PhaseBuffer values_ns;  // phase of selected pulse i, clock steps not yet removed
};

// The phase of every selected pulse. `capacity`: room to reserve in the buffer for a later
// stage that reuses it (the stability grid), so that it never reallocates.
PhaseSeries phase_series(const Selection& selection, const PulseIndex& index, core::ClockId clock,
                         std::int64_t period_ns, std::size_t capacity);

// Back into the window (c − P/2, c + P/2]: the offsets of a run whose clock steps are kept
// (`remove_clock_steps` off), which unwrapping carried past it. A whole buffer whose offsets
// are all in the window is left as it is; else it is folded as doubles.
void fold_into_window(std::span<double> values_ns, std::int64_t centre, std::int64_t period_ns);
void fold_into_window(PhaseBuffer& values_ns, std::int64_t centre, std::int64_t period_ns);

// The phase on the full pulse grid k = 0 … k_last, for the Allan-family estimators: a missed
// pulse is a hole that they skip (stability.hpp). Whole nanoseconds, 4 bytes a slot, where no
// fractional clock step is removed and the phase spans less than 2^31 ns; else seconds, as
// rule.for_each() gives them. Its own memory; needs at least one selected pulse. `lanes`: the
// instruction set of its straight runs (the same grid on each).
PhaseGrid phase_grid(const PhaseRule& rule, const Selection& selection, const PulseIndex& index,
                     std::span<const Step> removed, LanePath lanes = widest_lanes());

}  // namespace ppsbench::stats::detail
