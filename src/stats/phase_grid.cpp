// SPDX-License-Identifier: GPL-2.0-or-later
// The phase grid for the stability figures (phase.hpp): whole nanoseconds where it can be.

#include <cmath>
#include <cstdint>
#include <limits>

#include "phase.hpp"
#include "ppsbench/core/simd_target.hpp"

#if PPSBENCH_HAVE_AVX2_DISPATCH
#include <immintrin.h>
#endif

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

// A run of pulses whose k follow on one by one: x_i = t_i − base − i·P for i < count, each
// phase the one before plus its interval less a period. On a realtime clock that holds only
// while each interval is within half a period of P (t[−1] is the timestamp before t[0]); the
// kernels report (non-zero) a run where it is not, for the folding walk to redo. Exact
// integers, so the two paths give the same values.
struct StraightRun {
    std::int64_t base = 0;
    std::int64_t lowest = 0;
    std::int64_t highest = 0;
};

template <bool Realtime>
std::uint64_t straight_scalar(const std::int64_t* t, std::size_t count, std::int64_t p,
                              StraightRun& run, std::int32_t* out) {
    std::uint64_t stepped = 0;
    std::int64_t base = run.base;
    for (std::size_t i = 0; i < count; ++i) {
        if constexpr (Realtime) {  // 2w in (−P, P]
            const std::int64_t w = t[i] - t[static_cast<std::ptrdiff_t>(i) - 1] - p;
            stepped |=
                static_cast<std::uint64_t>(2 * w + p - 1) >= static_cast<std::uint64_t>(2 * p);
        }
        const std::int64_t x = t[i] - base;
        base += p;
        run.lowest = std::min(run.lowest, x);
        run.highest = std::max(run.highest, x);
        out[i] = static_cast<std::int32_t>(x);
    }
    run.base = base;
    return stepped;
}

std::uint64_t straight_base(const std::int64_t* t, std::size_t count, std::int64_t p, bool realtime,
                            StraightRun& run, std::int32_t* out) {
    return realtime ? straight_scalar<true>(t, count, p, run, out)
                    : straight_scalar<false>(t, count, p, run, out);
}

#if PPSBENCH_HAVE_AVX2_DISPATCH
// Four pulses an AVX2 instruction.
[[gnu::target("avx2")]] std::uint64_t straight_avx2(const std::int64_t* t, std::size_t count,
                                                    std::int64_t p, bool realtime, StraightRun& run,
                                                    std::int32_t* out) {
    const __m256i period = _mm256_set1_epi64x(p);
    const __m256i above = _mm256_set1_epi64x(p);      // 2w > P: stepped
    const __m256i below = _mm256_set1_epi64x(1 - p);  // 2w < 1 − P, i.e. 2w ≤ −P: stepped
    const __m256i narrow = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    __m256i base =
        _mm256_add_epi64(_mm256_set1_epi64x(run.base), _mm256_setr_epi64x(0, p, 2 * p, 3 * p));
    const __m256i step = _mm256_set1_epi64x(4 * p);
    __m256i low = _mm256_set1_epi64x(run.lowest);
    __m256i high = _mm256_set1_epi64x(run.highest);
    __m256i stepped = _mm256_setzero_si256();
    std::size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const __m256i now = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + i));
        if (realtime) {
            const __m256i before = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + i - 1));
            const __m256i w2 =
                _mm256_slli_epi64(_mm256_sub_epi64(_mm256_sub_epi64(now, before), period), 1);
            stepped = _mm256_or_si256(stepped, _mm256_or_si256(_mm256_cmpgt_epi64(w2, above),
                                                               _mm256_cmpgt_epi64(below, w2)));
        }
        const __m256i x = _mm256_sub_epi64(now, base);
        base = _mm256_add_epi64(base, step);
        low = _mm256_blendv_epi8(low, x, _mm256_cmpgt_epi64(low, x));
        high = _mm256_blendv_epi8(high, x, _mm256_cmpgt_epi64(x, high));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                         _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(x, narrow)));
    }
    alignas(32) std::int64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), low);
    run.lowest = std::min(std::min(lanes[0], lanes[1]), std::min(lanes[2], lanes[3]));
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), high);
    run.highest = std::max(std::max(lanes[0], lanes[1]), std::max(lanes[2], lanes[3]));
    run.base += static_cast<std::int64_t>(i) * p;
    return static_cast<std::uint64_t>(_mm256_testz_si256(stepped, stepped) == 0) |
           straight_base(t + i, count - i, p, realtime, run, out + i);
}
#endif

using StraightKernel = std::uint64_t (*)(const std::int64_t*, std::size_t, std::int64_t, bool,
                                         StraightRun&, std::int32_t*);

// grid.ns built a batch of pulses at a time: the phase of each into a local buffer of slots
// (no call in the loop, so its state stays in registers; the slots of missed pulses keep the
// hole they were filled with), then the slots appended at once. A batch never spans a removed
// clock step; one whose slots do not follow on in a buffer's span (a huge gap, k not rising)
// is placed slot by slot.
template <typename Timestamps>
class WholeGridFill {
  public:
    WholeGridFill(PhaseGrid& grid, const PhaseRule& rule, const Timestamps& t,
                  const PulseIndex& index, std::span<const Step> removed, StraightKernel straight)
        : straight_(straight),
          grid_(grid),
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
            const std::int64_t k = index_.at(first);
            const std::size_t end = run_end(first, last, k);
            // A short run (many missed pulses): the general walk takes the batch at once, rather
            // than a search of the index and a call for every few pulses.
            if (end < last && end - first < 8) {
                batch_of(first, last);
                first = last;
                continue;
            }
            if (static_cast<std::size_t>(k) < grid_.ns.size() || !straight(first, end, k)) {
                batch_of(first, end);
            }
            first = end;
        }
        return centred();
    }

  private:
    static constexpr std::size_t batch = 256;  // pulses
    static constexpr std::size_t span = 512;   // slots: 2 KB, appended by a vector copy

    // The end of [first, last) within the index's run of pulse `first` (whose k is k_first):
    // where the k stop following on one by one (a missed pulse).
    std::size_t run_end(std::size_t first, std::size_t last, std::int64_t k_first) const {
        auto in_run = [&](std::size_t i) {
            return index_.at(i) - k_first == static_cast<std::int64_t>(i - first);
        };
        if (in_run(last - 1)) {
            return last;
        }
        std::size_t inside = first;  // in the run
        std::size_t outside = last - 1;
        while (outside - inside > 1) {
            const std::size_t mid = inside + (outside - inside) / 2;
            (in_run(mid) ? inside : outside) = mid;
        }
        return outside;
    }

    // Pulses [first, last) of one run, the first at slot k_first ≥ the grid's end (the slots
    // between are missed pulses), by the straight kernels after the first; false (nothing
    // changed) where a realtime clock stepped by half a period or more: the folding walk
    // (batch_of) takes those.
    bool straight(std::size_t first, std::size_t last, std::int64_t k_first) {
        std::int64_t times[batch + 1];  // times[1 + i]: pulse first + i
        std::int32_t values[batch];
        const std::size_t count = last - first;
#pragma GCC unroll 4
        for (std::size_t i = 0; i < count; ++i) {
            times[i + 1] = t_[first + i];
        }
        WholePhase phase = phase_;
        const std::int64_t p = phase.period;
        const std::int64_t x0 = phase.next(times[1], k_first - last_k_) - offset_;
        values[0] = static_cast<std::int32_t>(x0);
        StraightRun run{times[1] - x0 + p, std::min(lowest_, x0), std::max(highest_, x0)};
        if (straight_(times + 2, count - 1, p, phase.realtime, run, values + 1) != 0) {
            return false;
        }
        grid_.ns.resize(static_cast<std::size_t>(k_first), PhaseGrid::hole);
        grid_.ns.insert(grid_.ns.end(), values, values + count);
        phase.last_t = times[count];
        phase.value = times[count] - (run.base - p) + offset_;
        phase_ = phase;
        lowest_ = run.lowest;
        highest_ = run.highest;
        last_k_ = k_first + static_cast<std::int64_t>(count - 1);
        return true;
    }

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

    StraightKernel straight_;
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
                     std::span<const Step> removed, LanePath lanes) {
    const auto length = static_cast<std::size_t>(index.back()) + 1;
    // Below 2^32 slots (the kernels' 32-bit indices); asked in 64 bits, as size_t is 32 bits
    // on 32-bit ARM, where a shift by 32 is undefined and every length fits.
    if (whole_steps(removed) && (std::uint64_t{length} >> 32) == 0) {
        StraightKernel kernel = straight_base;
#if PPSBENCH_HAVE_AVX2_DISPATCH
        kernel = lanes == LanePath::avx2 ? straight_avx2 : kernel;
#endif
        (void)lanes;
        PhaseGrid grid;
        const PackedTimestamps packed{*selection.pulses};
        const TimestampColumn column{selection};
        const bool done =
            selection.identity && selection.jump_at.empty()
                ? WholeGridFill(grid, rule, packed, index, removed, kernel).fill(length)
                : WholeGridFill(grid, rule, column, index, removed, kernel).fill(length);
        if (done) {
            return grid;
        }
    }
    return seconds_grid(rule, selection, index, removed);
}

}  // namespace ppsbench::stats::detail
