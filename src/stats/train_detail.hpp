// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the per-pulse steps of analyze() over any timestamp column, so that analyze() can
// read the caller's Pulse array in place instead of copying timestamps and sequence numbers
// out of it (16 B per pulse), and keep the pulse index as runs instead of 8 B per pulse.
// The span functions of detrend.hpp use the same code.
//
// A column is anything with `operator[](std::size_t)`.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ppsbench/stats/events.hpp"
#include "ppsbench/stats/quantile.hpp"
#include "unusual_intervals.hpp"

namespace ppsbench::stats::detail {

template <typename Timestamps>
double estimate_period(const Timestamps& t, std::size_t n, std::int64_t period_ns) {
    // The median of up to ~65536 evenly spread intervals: enough to count pulses by, and a
    // long run does not pay for a selection over millions of intervals.
    std::vector<double> intervals;
    const auto nominal = static_cast<double>(period_ns);
    const std::size_t stride = std::max<std::size_t>(1, n / 65536);
    for (std::size_t i = 1; i < n; i += stride) {
        const auto d = static_cast<double>(t[i] - t[i - 1]);
        if (d > 0.5 * nominal && d < 1.5 * nominal) {
            intervals.push_back(d);
        }
    }
    return intervals.empty() ? nominal : median_in_place(intervals);
}

// Pulse indices k_0 = 0, k_i = k_{i−1} + round((t_i − t_{i−1}) / period), stored as runs of
// consecutive indices: a capture has one run per missed-pulse gap, not one entry per pulse.
class PulseIndex {
  public:
    PulseIndex() = default;
    template <typename Timestamps>
    PulseIndex(const Timestamps& t, std::size_t n, double period_ns) : PulseIndex(n, period_ns) {
        std::int64_t previous =
            n > 0 ? t[0] : 0;  // each timestamp read once (a column read is not free)
        for (std::size_t i = 1; i < n; ++i) {
            const std::int64_t t_i = t[i];
            step(i, t_i - previous, period_ns);
            previous = t_i;
        }
    }
    // The same index, reading only the unusual intervals where they say enough: a usual one is
    // within a quarter period of the period, one step.
    template <typename Timestamps>
    PulseIndex(const Timestamps& t, std::size_t n, double period_ns,
               const UnusualIntervals& unusual)
        : PulseIndex(n, period_ns) {
        unusual.walk(
            n, unusual.within(near_low_, near_high_), [](std::size_t, std::size_t) {},
            [&](std::size_t i) { step(i, t[i] - t[i - 1], period_ns); });
    }

    std::size_t size() const { return n_; }
    std::int64_t back() const {
        return firsts_.back() + static_cast<std::int64_t>(n_ - 1 - starts_.back());
    }
    std::int64_t min() const {
        std::int64_t lo = firsts_.front();
        for (std::size_t r = 0; r < starts_.size(); ++r) {
            lo = std::min(lo, firsts_[r]);
        }
        return lo;
    }
    std::int64_t max() const {
        std::int64_t hi = firsts_.front();
        for (std::size_t r = 0; r < starts_.size(); ++r) {
            hi = std::max(hi, last_of_run(r));
        }
        return hi;
    }
    // f(i, k_i) for every pulse, in order.
    template <typename F>
    void for_each(F f) const {
        for (std::size_t r = 0; r < starts_.size(); ++r) {
            const std::size_t end = r + 1 < starts_.size() ? starts_[r + 1] : n_;
            std::int64_t k = firsts_[r];
            for (std::size_t i = starts_[r]; i < end; ++i, ++k) {
                f(i, k);
            }
        }
    }
    // k_i of pulse i < size().
    std::int64_t at(std::size_t i) const {
        const std::size_t r = run_of(i);
        return firsts_[r] + static_cast<std::int64_t>(i - starts_[r]);
    }
    // Whether k_i never falls over the pulses first <= i < last (the usual run: a clock stepped
    // back is the exception), so that their k are in sorted order as they stand.
    bool ascending_between(std::size_t first, std::size_t last) const {
        last = std::min(last, n_);
        if (first >= last) {
            return true;
        }
        for (std::size_t r = run_of(first) + 1; r < starts_.size() && starts_[r] < last; ++r) {
            if (firsts_[r] < last_of_run(r - 1)) {
                return false;
            }
        }
        return true;
    }
    // f(i, k_i) for the pulses first <= i < last, in order, visiting only the runs they lie in.
    template <typename F>
    void for_each_between(std::size_t first, std::size_t last, F f) const {
        last = std::min(last, n_);
        if (first >= last) {
            return;
        }
        for (std::size_t r = run_of(first); r < starts_.size(); ++r) {
            const std::size_t end = std::min(r + 1 < starts_.size() ? starts_[r + 1] : n_, last);
            const std::size_t begin = std::max(starts_[r], first);
            std::int64_t k = firsts_[r] + static_cast<std::int64_t>(begin - starts_[r]);
            for (std::size_t i = begin; i < end; ++i, ++k) {
                f(i, k);
            }
            if (end == last) {
                return;
            }
        }
    }
    // f(first, end, k_first) for each run of pulses [first, end) whose indices count up by one
    // from k_first, in order: a run opens wherever the index does not step by exactly one.
    template <typename F>
    void for_each_run(F f) const {
        for (std::size_t r = 0; r < starts_.size(); ++r) {
            f(starts_[r], r + 1 < starts_.size() ? starts_[r + 1] : n_, firsts_[r]);
        }
    }
    // The same runs, the last first.
    template <typename F>
    void for_each_run_from_last(F f) const {
        for (std::size_t r = starts_.size(); r-- > 0;) {
            f(starts_[r], r + 1 < starts_.size() ? starts_[r + 1] : n_, firsts_[r]);
        }
    }
    // Whether every pulse has an index above the one before (no clock stepped back, no two
    // pulses in one period slot).
    bool strictly_rising() const {
        for (std::size_t r = 1; r < starts_.size(); ++r) {
            if (firsts_[r] <= last_of_run(r - 1)) {
                return false;
            }
        }
        return true;
    }
    std::vector<std::int64_t> dense() const {
        std::vector<std::int64_t> k(n_);
        for_each([&k](std::size_t i, std::int64_t value) { k[i] = value; });
        return k;
    }

  private:
    PulseIndex(std::size_t n, double period_ns)
        : n_(n), near_low_(0.75 * period_ns), near_high_(1.25 * period_ns) {
        if (n > 0) {
            starts_.push_back(0);
            firsts_.push_back(0);
        }
    }
    // Pulse i comes `interval` after pulse i − 1. An interval within a quarter period of the
    // period rounds to one period for certain: no division and no llround call for the usual
    // pulse.
    void step(std::size_t i, std::int64_t interval, double period_ns) {
        const auto d = static_cast<double>(interval);
        const std::int64_t steps =
            d >= near_low_ && d <= near_high_ ? 1 : std::llround(d / period_ns);
        if (steps != 1) {
            const std::int64_t before =
                firsts_.back() + static_cast<std::int64_t>(i - 1 - starts_.back());
            starts_.push_back(i);
            firsts_.push_back(before + steps);
        }
    }
    // The run holding pulse i: the last run starting at or before it.
    std::size_t run_of(std::size_t i) const {
        return static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), i) -
                                        starts_.begin() - 1);
    }
    std::int64_t last_of_run(std::size_t r) const {
        const std::size_t end = r + 1 < starts_.size() ? starts_[r + 1] : n_;
        return firsts_[r] + static_cast<std::int64_t>(end - 1 - starts_[r]);
    }
    std::size_t n_ = 0;
    double near_low_ = 0;
    double near_high_ = 0;
    std::vector<std::size_t> starts_;   // first pulse of each run
    std::vector<std::int64_t> firsts_;  // its index
};

// A dense index (the span functions' argument) with PulseIndex's for_each, min and max.
struct SpanIndex {
    std::span<const std::int64_t> k;
    std::int64_t min() const { return *std::min_element(k.begin(), k.end()); }
    std::int64_t max() const { return *std::max_element(k.begin(), k.end()); }
    template <typename F>
    void for_each(F f) const {
        for (std::size_t i = 0; i < k.size(); ++i) {
            f(i, k[i]);
        }
    }
};

// A hole before pulse `index`: `missed` pulses are absent between it and the previous one.
struct Gap {
    std::size_t index = 0;
    std::uint64_t missed = 0;              // missed_by_sequence + missed_by_time
    std::uint64_t missed_by_sequence = 0;  // empty slots the kernel counted an event for
    std::uint64_t missed_by_time = 0;      // empty slots without sequence evidence
};

struct MissedPulses {
    std::uint64_t total = 0;  // Σ gap.missed
    std::uint64_t by_sequence = 0;
    std::uint64_t by_time = 0;
    std::uint64_t unseen = 0;  // sequence skips without an empty slot
    std::vector<Gap> gaps;
};

// Missed pulses and unseen events of one edge in time order, by classify_interval() (events.hpp;
// the clock steps it finds were taken out of the timestamps by the selection, so none is left
// here). Without sequences (`have_sequences` false) only time counts. `period_ns`: the clock's
// own period (estimate_period) to count with. Only the unusual intervals are classified where
// the usual ones are within the rule's bounds (about which it has nothing to say).
template <typename Timestamps, typename Sequences>
MissedPulses find_missed(const Timestamps& t, const Sequences& sequences, std::size_t n,
                         bool have_sequences, double period_ns, std::int64_t nominal_period_ns,
                         bool clock_can_step, const UnusualIntervals& unusual) {
    MissedPulses result;
    const IntervalRule rule{period_ns, nominal_period_ns, clock_can_step};
    // classify_interval()'s bounds for one period with one event.
    const auto nominal = static_cast<double>(nominal_period_ns);
    const double reach = have_sequences && clock_can_step ? step_reach : 0.5;
    const bool use_list = unusual.within((1 - reach) * nominal, (1 + reach) * nominal) &&
                          (unusual.sequences || !have_sequences);
    unusual.walk(
        n, use_list, [](std::size_t, std::size_t) {},
        [&](std::size_t i) {
            IntervalEvidence evidence{t[i] - t[i - 1], std::nullopt, std::nullopt};
            if (have_sequences) {
                evidence.events = sequence_advance(sequences[i - 1], sequences[i]);
            }
            // The selection took the clock steps out of the timestamps; a step found here again
            // (pulses reordered around it) still counts its sequence's missed pulses, no slots.
            const IntervalVerdict verdict = classify_interval(evidence, rule);
            result.unseen += verdict.unseen;
            if (verdict.missed > 0) {
                result.total += verdict.missed;
                result.by_time += verdict.missed_by_time;
                result.by_sequence += verdict.missed_by_sequence;
                result.gaps.push_back(
                    {i, verdict.missed, verdict.missed_by_sequence, verdict.missed_by_time});
            }
        });
    return result;
}

struct JitterCounts {
    std::size_t values = 0;
    std::size_t skipped_gaps = 0;
    std::size_t skipped_excluded = 0;
};

// The pairs of consecutive pulses the period jitter uses, with whether each touches an excluded
// pulse: calls f(double, bool) with (t_k − t_{k−1}) − P, in exact integer ns, and that flag,
// in time order. A pair is used only if the pulse indices differ by exactly one: across a
// missed pulse the interval is two periods and says nothing about one (counted in
// skipped_gaps). Pairs ending at a pulse in `breaks` (sorted: clock steps) are skipped and
// counted in skipped_breaks; a pair touching a pulse in `excluded` (sorted: outliers) is
// passed on flagged, and counted in `touching`. One walk thus serves the series with and
// without the excluded pulses (period_jitter.cpp).
struct PairCounts {
    std::size_t values = 0;  // pairs passed to f, flagged or not
    std::size_t touching = 0;
    std::size_t skipped_gaps = 0;
    std::size_t skipped_breaks = 0;
};

// The first pulse past i at which for_each_period_pair() must look again: the next break
// after i or the next excluded pulse at or after i (a pair ending at e or e + 1 touches e),
// from cursors that lie at or before them.
inline std::size_t quiet_after(std::size_t i, std::span<const std::size_t> breaks,
                               std::size_t next_break, std::span<const std::size_t> excluded,
                               std::size_t next_excluded) {
    while (next_break < breaks.size() && breaks[next_break] <= i) {
        ++next_break;
    }
    while (next_excluded < excluded.size() && excluded[next_excluded] < i) {
        ++next_excluded;
    }
    const std::size_t none = static_cast<std::size_t>(-1);
    return std::min(next_break < breaks.size() ? breaks[next_break] : none,
                    next_excluded < excluded.size() ? excluded[next_excluded] : none);
}

template <typename Timestamps, typename Index, typename F>
PairCounts for_each_period_pair(const Timestamps& t, std::size_t n, const Index& index,
                                std::int64_t period_ns, std::span<const std::size_t> breaks,
                                std::span<const std::size_t> excluded, F f) {
    PairCounts counts;
    if (n < 2) {
        return counts;
    }
    // Both lists are sorted: walk them with cursors instead of searching per pair.
    std::size_t next_break = 0;
    std::size_t next_excluded = 0;
    std::int64_t previous_k = 0;
    // Each timestamp is read once and kept for the next pair: a column read goes through the
    // selection's index and its jump corrections.
    std::int64_t previous_t = 0;
    // Below `quiet_until` (past the pair where it was set) no break and no excluded pulse lies,
    // so a pair one period long is a plain value: the cursors and tests below would find
    // nothing, and are skipped (the same pairs, values and counts, in the same order).
    std::size_t quiet_until = 0;
    index.for_each([&](std::size_t i, std::int64_t k) {
        const std::int64_t step = k - previous_k;
        previous_k = k;
        const std::int64_t t_i = t[i];
        const std::int64_t t_before = previous_t;
        previous_t = t_i;
        if (step == 1 && i < quiet_until) {
            ++counts.values;
            f(static_cast<double>(t_i - t_before - period_ns), false);
            return;
        }
        if (i == 0) {
            return;
        }
        quiet_until = quiet_after(i, breaks, next_break, excluded, next_excluded);
        while (next_break < breaks.size() && breaks[next_break] < i) {
            ++next_break;
        }
        while (next_excluded < excluded.size() && excluded[next_excluded] < i - 1) {
            ++next_excluded;
        }
        if (step != 1) {
            ++counts.skipped_gaps;
            return;
        }
        if (next_break < breaks.size() && breaks[next_break] == i) {
            ++counts.skipped_breaks;
            return;
        }
        const bool touches_excluded =
            next_excluded < excluded.size() &&
            (excluded[next_excluded] == i - 1 || excluded[next_excluded] == i);
        ++counts.values;
        counts.touching += touches_excluded ? 1 : 0;
        f(static_cast<double>(t_i - t_before - period_ns), touches_excluded);
    });
    return counts;
}

// Period jitter over consecutive pulses: calls f(double) with (t_k − t_{k−1}) − P, in exact
// integer ns, for each usable pair, in time order: the pairs of for_each_period_pair() that
// touch no pulse in `excluded`. Pairs ending at a break or touching an excluded pulse are
// counted in skipped_excluded.
template <typename Timestamps, typename Index, typename F>
JitterCounts for_each_period_jitter(const Timestamps& t, std::size_t n, const Index& index,
                                    std::int64_t period_ns, std::span<const std::size_t> breaks,
                                    std::span<const std::size_t> excluded, F f) {
    const PairCounts pairs = for_each_period_pair(t, n, index, period_ns, breaks, excluded,
                                                  [&f](double v, bool touches_excluded) {
                                                      if (!touches_excluded) {
                                                          f(v);
                                                      }
                                                  });
    return {pairs.values - pairs.touching, pairs.skipped_gaps,
            pairs.skipped_breaks + pairs.touching};
}

}  // namespace ppsbench::stats::detail
