// SPDX-License-Identifier: GPL-2.0-or-later
// The phase grid for the stability figures (phase.hpp): whole nanoseconds where it can be.

#include <cmath>
#include <cstdint>
#include <limits>

#include "phase.hpp"

namespace ppsbench::stats::detail {

namespace {

// As PhaseRule::for_each computes it, in seconds: the grid where the phase is not whole
// nanoseconds (a fractional clock step removed) or spans 2^31 ns or more.
PhaseGrid seconds_grid(const PhaseRule& rule, const Selection& selection, const PulseIndex& index,
                       std::span<const Step> removed) {
    PhaseGrid grid;
    grid.seconds.assign(static_cast<std::size_t>(index.back()) + 1,
                        std::numeric_limits<double>::quiet_NaN());
    rule.for_each(selection, index, removed, [&grid](std::size_t, std::int64_t ki, double v) {
        grid.seconds[static_cast<std::size_t>(ki)] = v * 1e-9;
    });
    return grid;
}

bool whole_steps(std::span<const Step> removed) {
    for (const Step& s : removed) {
        if (!(std::abs(s.size_ns) < 0x1p52) || std::trunc(s.size_ns) != s.size_ns) {
            return false;
        }
    }
    return true;
}

// The phase of each pulse from the one before it, in int64: on a free-running clock
// t_i − t_0 − k_i·P, and on a realtime one the same difference folded into (−P/2, P/2], which
// is what PhaseFolder and PhaseUnwrapper give (a difference of unwrapped offsets is the
// difference of the timestamps modulo P, in that interval), without their division or state.
struct WholePhase {
    std::int64_t period;
    bool realtime;
    std::int64_t last_t;
    std::int64_t value = 0;

    [[gnu::always_inline]] std::int64_t next(std::int64_t t, std::int64_t periods) {
        const std::int64_t d = t - last_t;
        last_t = t;
        std::int64_t w = d - periods * period;
        // 2w in (−P, P]: the usual pulse; else fold d itself.
        if (realtime && static_cast<std::uint64_t>(2 * w + period - 1) >=
                            static_cast<std::uint64_t>(2 * period)) {
            w = d % period;
            w += w < 0 ? period : 0;
            w -= 2 * w > period ? period : 0;
        }
        value += w;
        return value;
    }
};

// The usual capture's timestamps, read straight from the packed pulses.
struct PackedTimestamps {
    const core::PackedPulses& pulses;
    std::int64_t operator[](std::size_t i) const { return pulses.timestamp_ns(i); }
};

// grid.ns built a batch of pulses at a time: the phase of each into a local buffer of slots
// (no call in the loop, so its state stays in registers; the slots of missed pulses keep the
// hole they were filled with), then the slots appended at once. A batch never spans a removed
// clock step; one whose slots do not follow on in a buffer's span (a huge gap, k not rising)
// is placed slot by slot.
template <typename Timestamps>
class WholeGridFill {
  public:
    WholeGridFill(PhaseGrid& grid, const PhaseRule& rule, const Timestamps& t,
                  const PulseIndex& index, std::span<const Step> removed)
        : grid_(grid),
          t_(t),
          index_(index),
          removed_(removed),
          phase_{rule.period_ns, rule.realtime, t[0]} {
        if (rule.realtime) {
            PhaseFolder around(rule.centre, rule.period_ns);
            phase_.value = around(t[0]);
        }
    }

    // False where the phase spans 2^31 ns or more (grid.ns is then undefined). Each value is
    // kept as the int32 of its offset from the first one and checked at the end (one out of
    // range wraps, harmlessly: the grid is then given up).
    bool fill(std::size_t length) {
        grid_.ns.reserve(length);
        take_steps(0);
        grid_.reference_ns = phase_.value - offset_;
        offset_ = phase_.value;
        grid_.ns.push_back(0);
        const std::size_t n = index_.size();
        for (std::size_t first = 1; first < n;) {
            take_steps(first);
            const std::size_t stop = next_step_ < removed_.size() ? removed_[next_step_].index : n;
            const std::size_t last = std::min({first + batch, stop, n});
            batch_of(first, last);
            first = last;
        }
        return centred();
    }

  private:
    static constexpr std::size_t batch = 256;  // pulses
    static constexpr std::size_t span = 512;   // slots: 2 KB, appended by a vector copy

    void take_steps(std::size_t i) {
        while (next_step_ < removed_.size() && removed_[next_step_].index == i) {
            offset_ += static_cast<std::int64_t>(removed_[next_step_].size_ns);
            ++next_step_;
        }
    }

    void batch_of(std::size_t first, std::size_t last) {
        std::int32_t slots[span];
        std::fill(slots, slots + span, PhaseGrid::hole);
        const auto base = static_cast<std::int64_t>(grid_.ns.size());
        const WholePhase before = phase_;
        WholePhase phase = phase_;
        std::int64_t last_k = last_k_;
        std::int64_t lowest = lowest_;
        std::int64_t highest = highest_;
        const std::int64_t offset = offset_;
        std::uint64_t outside = 0;  // non-zero once a slot falls outside the buffer
        index_.for_each_between(first, last, [&](std::size_t i, std::int64_t k) {
            const std::int64_t v = phase.next(t_[i], k - last_k) - offset;
            last_k = k;
            lowest = std::min(lowest, v);
            highest = std::max(highest, v);
            const auto slot = static_cast<std::uint64_t>(k - base);
            outside |= slot / span;
            slots[slot % span] = static_cast<std::int32_t>(v);
        });
        phase_ = phase;
        lowest_ = lowest;
        highest_ = highest;
        if (outside == 0 && last_k >= base) {
            grid_.ns.insert(grid_.ns.end(), slots, slots + (last_k - base + 1));
        } else {  // a gap past the buffer, or k not rising: slot by slot, the phase again
            WholePhase again = before;
            std::int64_t previous_k = last_k_;
            index_.for_each_between(first, last, [&](std::size_t i, std::int64_t k) {
                const std::int64_t v = again.next(t_[i], k - previous_k) - offset;
                previous_k = k;
                place(static_cast<std::size_t>(k), static_cast<std::int32_t>(v));
            });
        }
        last_k_ = last_k;
    }

    void place(std::size_t slot, std::int32_t value) {
        if (slot >= grid_.ns.size()) {
            grid_.ns.resize(slot, PhaseGrid::hole);
            grid_.ns.push_back(value);
        } else {  // a pulse on a slot already passed (k not rising): the later one, as in seconds
            grid_.ns[slot] = value;
        }
    }

    // Every value within ±(2^30 − 1) of the reference, centred if need be.
    bool centred() {
        constexpr std::int64_t limit = (std::int64_t{1} << 30) - 1;
        if (highest_ - lowest_ > 2 * limit) {
            return false;
        }
        if (lowest_ < -limit || highest_ > limit) {
            const std::int64_t centre = lowest_ + (highest_ - lowest_) / 2;
            for (std::int32_t& x : grid_.ns) {
                x = x == PhaseGrid::hole ? x : static_cast<std::int32_t>(x - centre);
            }
            grid_.reference_ns += centre;
        }
        return true;
    }

    PhaseGrid& grid_;
    const Timestamps& t_;
    const PulseIndex& index_;
    std::span<const Step> removed_;
    WholePhase phase_;
    std::size_t next_step_ = 0;
    std::int64_t offset_ = 0;  // what a phase value is stored less: the reference and the steps
    std::int64_t last_k_ = 0;
    std::int64_t lowest_ = 0;
    std::int64_t highest_ = 0;
};

}  // namespace

PhaseGrid phase_grid(const PhaseRule& rule, const Selection& selection, const PulseIndex& index,
                     std::span<const Step> removed) {
    const auto length = static_cast<std::size_t>(index.back()) + 1;
    if (whole_steps(removed) && length < (std::size_t{1} << 32)) {
        PhaseGrid grid;
        const PackedTimestamps packed{*selection.pulses};
        const TimestampColumn column{selection};
        const bool done = selection.identity && selection.jump_at.empty()
                              ? WholeGridFill(grid, rule, packed, index, removed).fill(length)
                              : WholeGridFill(grid, rule, column, index, removed).fill(length);
        if (done) {
            return grid;
        }
    }
    return seconds_grid(rule, selection, index, removed);
}

}  // namespace ppsbench::stats::detail
