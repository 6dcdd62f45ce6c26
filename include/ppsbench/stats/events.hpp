// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ppsbench::stats {

// Things that happen to a pulse train besides jitter. Each finder reports positions (indices
// into the series it was given) and leaves the decision of what to do to the caller; analyze()
// documents its choices in docs/methodology.md.

// Robust outlier rule: x is an outlier when |x − median| > k · s, where s is the MAD-based
// robust σ (1.4826 · MAD); when more than half the values are identical (MAD = 0, e.g. coarse
// timestamps) s falls back to 1.2533 · mean |x − median|, the mean absolute deviation's σ
// equivalent. A handful of wild values cannot move the median or the MAD, so they cannot hide
// themselves, unlike a rule based on mean and σ.
struct Outliers {
    double center = 0;     // median
    double scale = 0;      // s
    double threshold = 0;  // k · s
    std::vector<std::size_t> indices;
};

// The centre and robust σ come from the series' summary (summarize()): one pass, no copy. A
// zero `robust_stddev` triggers the fallback above.
Outliers find_outliers(std::span<const double> values, double k, double median,
                       double robust_stddev);

// A persistent jump in a phase series (e.g. the clock being stepped): the level of the series
// from `index` on differs from the level before it by `size_ns`, the drift allowed for.
struct Step {
    std::size_t index = 0;
    double size_ns = 0;
};

// Candidates are samples whose difference from the previous one departs from the median
// difference by more than k robust σ of the differences; a candidate is a step only if the
// medians of the `window` samples on either side (at least 5 each, never reaching across the
// previous step) also differ by more than k noise σ. A lone spike moves one difference pair
// but neither median, so it is an outlier, not a step.
//
// `known`: positions (ascending) that are steps whatever their size, because the timestamps
// say so (a time jump with contiguous sequence numbers, see classify_interval()).
//
// The size of every step is then estimated from all the samples between its neighbouring steps
// (up to `size_window` on each side): a least-squares fit of one common slope and one level on
// each side, refitted once without the samples more than 5 robust σ from the first fit. A
// 16-sample median misjudges a step by ~0.5 σ, which is left in every later sample.
std::vector<Step> find_steps(std::span<const double> phase_ns, double k,
                             std::span<const std::size_t> known = {}, std::size_t window = 16,
                             std::size_t size_window = 512);
// The same on a phase in whole nanoseconds (analyze() holds it so where it fits int32): the
// same steps and sizes as on those values as doubles.
std::vector<Step> find_steps(std::span<const std::int32_t> phase_ns, double k,
                             std::span<const std::size_t> known = {}, std::size_t window = 16,
                             std::size_t size_window = 512);

// Subtracts each step from every sample from its index on, so the series continues at the
// level of its first segment: one step then costs one sample pair instead of a bimodal series.
void remove_steps(std::span<double> phase_ns, std::span<const Step> steps);

// The one rule for what lies between two consecutive pulses of one edge (the timestamps'
// interval and the kernel's sequence numbers), used by analyze() and by the importers:
//
// * a pulse is **missed** when its period slot has no timestamp and the kernel counted an event
//   for it: the slots are round(interval / P) − 1 for an interval over 1.5 P;
// * a sequence skip without an empty slot is an **unseen** kernel event (a glitch or contact
//   bounce the reader did not fetch), not a missed pulse;
// * on a clock that can be stepped (realtime), time the sequence numbers do not account for is
//   a **clock step**, of any size: more than (events + ½) periods with `events` kernel events
//   (a +1 year step with contiguous sequence numbers is a step, not 31 M missed pulses), or
//   with contiguous numbers more than P/4 from one period: Δt − P, forward, or backward when
//   the next pulse keeps the new rhythm (a −700 ms or a −500 ms step; a glitch 300 ms after a
//   pulse is followed by a pulse in the old rhythm instead, and is a glitch).
//
// Without sequence evidence (imported logs, a reset counter) time alone counts the slots.
struct IntervalEvidence {
    std::int64_t interval_ns = 0;  // t_i − t_{i−1}; may be negative in file order
    // s_i − s_{i−1} when it is evidence (sequence_advance()), 1 for contiguous numbers.
    std::optional<std::uint64_t> events;
    std::optional<std::int64_t> next_interval_ns;  // t_{i+1} − t_i, if there is a next pulse
};

struct IntervalRule {
    double period_ns = 0;                // the clock's own period (median interval), to count with
    std::int64_t nominal_period_ns = 0;  // P, for the thresholds and the step size
    bool clock_can_step = true;          // false on CLOCK_MONOTONIC (and our own GPIO counts)
};

struct IntervalVerdict {
    std::uint64_t missed = 0;
    std::uint64_t missed_by_sequence = 0;  // of `missed`: slots the kernel counted an event for
    std::uint64_t missed_by_time = 0;      // of `missed`: slots with no sequence evidence
    std::uint64_t unseen = 0;
    bool step = false;
    std::int64_t step_ns = 0;  // interval − events·P: what the clock jumped by
    // The later pulse came early with contiguous numbers and the next one keeps the old rhythm:
    // not a pulse of the train. The next interval is to be taken from the pulse before it.
    bool glitch = false;
};

// With contiguous kernel numbers, an interval more than this many periods from one period is a
// clock step: jitter never comes near a quarter period, and a step of exactly ±P/2 is then
// proven whatever the jitter does to the interval's last nanoseconds.
inline constexpr double step_reach = 0.25;

namespace detail {
// The whole rule (events.cpp); classify_interval() below calls it for every interval that is
// not one period with one event.
IntervalVerdict classify_unusual_interval(const IntervalEvidence& evidence,
                                          const IntervalRule& rule);
}  // namespace detail

// Inline because analyze() classifies every interval of every run twice (clock steps in file
// order, then missed pulses in time order), and nearly all of them are one event one period
// later, about which the rule has nothing to say: decided here without a call. The bounds are
// the rule's own (with contiguous kernel numbers a step needs more than P/4 off one period;
// without them nothing within P/2 of it counts; a slot needs more than 1.5 P).
inline IntervalVerdict classify_interval(const IntervalEvidence& evidence,
                                         const IntervalRule& rule) {
    const auto nominal = static_cast<double>(rule.nominal_period_ns);
    const auto interval = static_cast<double>(evidence.interval_ns);
    const double reach = evidence.events && rule.clock_can_step ? step_reach : 0.5;
    if ((!evidence.events || *evidence.events == 1) && interval >= (1 - reach) * nominal &&
        interval <= (1 + reach) * nominal) {
        return {};
    }
    return detail::classify_unusual_interval(evidence, rule);
}

// The kernel's sequence advance between two pulses of one edge, when it is evidence: it must
// increase (a reset, a wrap or an imported log's zeros are none) and by at most 2^32 (the
// Linux counter is 32 bits wide: a larger jump is another counter or a damaged line). Inline
// for the same reason as classify_interval().
inline std::optional<std::uint64_t> sequence_advance(std::uint64_t previous,
                                                     std::uint64_t current) {
    constexpr std::uint64_t widest = std::uint64_t{1} << 32;
    if (current <= previous || current - previous > widest) {
        return std::nullopt;
    }
    return current - previous;
}

}  // namespace ppsbench::stats
