// SPDX-License-Identifier: GPL-2.0-or-later
#include "selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/events.hpp"

namespace ppsbench::stats::detail {

core::Edge choose_edge(const core::PackedPulses& pulses, std::optional<core::Edge> requested) {
    if (requested) {
        return *requested;
    }
    const bool any_assert = std::any_of(pulses.begin(), pulses.end(), [](const core::Pulse& p) {
        return p.edge == core::Edge::assert_edge;
    });
    return any_assert || pulses.empty() ? core::Edge::assert_edge : core::Edge::clear_edge;
}

namespace {

constexpr std::size_t none = static_cast<std::size_t>(-1);

void check_range(const core::PackedPulses& pulses) {
    for (std::size_t i = 0; i < pulses.size(); ++i) {
        const std::int64_t t = pulses.timestamp_ns(i);
        if (t < 0) {
            throw core::InputError(
                fmt::format("pulse {} (sequence {}): the timestamp {} ns is negative (before "
                            "1970, or before boot), which no PPS clock gives; the capture is "
                            "damaged",
                            i + 1, pulses.sequence(i), t));
        }
    }
}

// Time jumps with contiguous sequence numbers, in file order (classify_interval()), and the
// running correction they add up to.
void find_jumps(Selection& s, core::Edge edge, std::int64_t period_ns,
                const UnusualIntervals* file_order) {
    const core::PackedPulses& pulses = *s.pulses;
    const IntervalRule rule{static_cast<double>(period_ns), period_ns, true};
    std::int64_t total = 0;
    std::size_t previous = none;
    std::size_t current = none;
    core::PackedPulses::SequenceCursor sequences = pulses.sequence_cursor();
    // Whether the later pulse of the pair is a glitch.
    auto consider = [&](std::size_t next) -> bool {
        const core::Pulse a{sequences(previous), pulses.timestamp_ns(previous), edge};
        const core::Pulse b{sequences(current), pulses.timestamp_ns(current), edge};
        IntervalEvidence evidence{b.timestamp_ns - a.timestamp_ns,
                                  sequence_advance(a.sequence, b.sequence), std::nullopt};
        if (next != none) {
            evidence.next_interval_ns = pulses.timestamp_ns(next) - b.timestamp_ns;
        }
        const IntervalVerdict verdict = classify_interval(evidence, rule);
        if (!verdict.step) {
            return verdict.glitch;
        }
        // Each jump is under 2^63 ns, but a damaged file can add many of them up.
        if (__builtin_add_overflow(total, verdict.step_ns, &total) ||
            total > core::max_timestamp_ns || total < -core::max_timestamp_ns) {
            throw core::InputError(fmt::format(
                "pulse {} (sequence {}): the clock steps up to it add up to more than 2^62 ns "
                "(146 years); the capture is damaged",
                current + 1, b.sequence));
        }
        s.jump_at.push_back(current);
        s.jump_ns.push_back(verdict.step_ns);
        s.correction.push_back(total);
        return false;
    };
    // With the file order's list (one edge: consecutive pulses are consecutive in the file), a
    // usual pair of consecutive pulses has no verdict, and nor do the pairs after it up to the
    // next unusual one: the walk skips to that.
    const std::vector<std::size_t> no_list;
    const std::vector<std::size_t>& at = file_order != nullptr ? file_order->at : no_list;
    std::size_t u = 0;  // the list's first entry at or after `current`
    const auto usual_pair = [&] {
        if (file_order == nullptr || previous == none || previous + 1 != current) {
            return false;
        }
        while (u < at.size() && at[u] < current) {
            ++u;
        }
        return u == at.size() || at[u] != current;
    };
    for (std::size_t i = 0; i < pulses.size(); ++i) {
        if (pulses.edge(i) != edge) {
            continue;
        }
        if (usual_pair()) {
            const std::size_t next = u < at.size() ? at[u] : pulses.size();
            previous = std::min(next, pulses.size() - 1) - 1;
            current = previous + 1;
            i = current;
            continue;
        }
        // A glitch is no pulse of the train: the next interval runs from the pulse before it.
        if (previous == none || !consider(i)) {
            previous = current;
        }
        current = i;
    }
    if (previous != none && current != none) {
        consider(none);
    }
}

// Corrected timestamps stay non-negative int64 so that any difference of two fits.
void check_corrected(const Selection& s, core::Edge edge) {
    const core::PackedPulses& pulses = *s.pulses;
    if (s.jump_at.empty()) {
        return;
    }
    std::size_t next_jump = 0;
    std::int64_t correction = 0;
    for (std::size_t i = s.jump_at.front(); i < pulses.size(); ++i) {
        while (next_jump < s.jump_at.size() && s.jump_at[next_jump] <= i) {
            correction = s.correction[next_jump++];
        }
        std::int64_t t = 0;
        if (pulses.edge(i) == edge &&
            (__builtin_sub_overflow(pulses.timestamp_ns(i), correction, &t) || t < 0)) {
            throw core::InputError(fmt::format(
                "pulse {} (sequence {}): with the clock steps before it taken out, its time "
                "falls outside 1970 … 2262; the capture is damaged",
                i + 1, pulses.sequence(i)));
        }
    }
}

// Whether the selection is the caller's pulses as they stand (one edge, in time order, no
// duplicates). With the file order's list only its pulses and the time jumps can break that:
// every other pulse is a usual interval, at least half a period, after the one before.
bool selects_all(Selection& s, core::Edge edge, std::int64_t period_ns,
                 const std::vector<std::size_t>& breaks, bool listed) {
    const core::PackedPulses& pulses = *s.pulses;
    if (listed) {
        return std::none_of(breaks.begin(), breaks.end(), [&](std::size_t i) {
            return s.timestamp(i) - s.timestamp(i - 1) < period_ns / 2;
        });
    }
    bool identity = true;
    std::int64_t previous = 0;
    for (std::size_t i = 0; i < pulses.size(); ++i) {
        if (pulses.edge(i) != edge) {
            ++s.other_edge;
            identity = false;
            continue;
        }
        const std::int64_t t = s.timestamp(i);
        if (i > 0 && identity && t - previous < period_ns / 2) {
            identity = false;  // out of order or a duplicate
        }
        previous = t;
    }
    return identity;
}

}  // namespace

Selection select_pulses(const core::PackedPulses& pulses, core::Edge edge, std::int64_t period_ns,
                        bool clock_can_step, bool sequences, const UnusualIntervals* file_order) {
    if (file_order == nullptr) {
        check_range(pulses);  // else the scan found no negative timestamp
    }
    Selection s;
    s.pulses = &pulses;
    if (clock_can_step) {
        find_jumps(s, edge, period_ns, file_order);
        check_corrected(s, edge);
    }
    // The file order's unusual pulses and the time jumps: where the selected timestamps can
    // break their rhythm (the selection's own list, if it keeps every pulse).
    std::vector<std::size_t> breaks;
    if (file_order != nullptr) {
        std::set_union(file_order->at.begin(), file_order->at.end(), s.jump_at.begin(),
                       s.jump_at.end(), std::back_inserter(breaks));
    }
    // First a cheap pass: the usual capture needs no index at all.
    s.identity = selects_all(s, edge, period_ns, breaks, file_order != nullptr);
    if (s.identity) {
        s.size = pulses.size();
        s.unusual = UnusualIntervals::for_period(period_ns, sequences);
        s.unusual.listed = s.unusual.listed && file_order != nullptr;
        if (s.unusual.listed) {
            s.unusual.at = std::move(breaks);
        }
        return s;
    }
    std::int64_t previous = 0;
    s.source.reserve(pulses.size() - s.other_edge);
    bool have_previous = false;
    for (std::size_t i = 0; i < pulses.size(); ++i) {
        if (pulses.edge(i) != edge) {
            continue;
        }
        const std::int64_t t = s.timestamp(i);
        if (have_previous && t < previous) {
            ++s.out_of_order;
        }
        previous = t;
        have_previous = true;
        s.source.push_back(i);
    }
    if (s.out_of_order > 0) {
        std::stable_sort(s.source.begin(), s.source.end(), [&](std::size_t a, std::size_t b) {
            return s.timestamp(a) < s.timestamp(b);
        });
    }
    // A second pulse within half a period of the one before is not another pulse of the
    // train: an exact duplicate (a replayed line) or a glitch. Keep the first.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < s.source.size(); ++i) {
        if (kept > 0 &&
            s.timestamp(s.source[i]) - s.timestamp(s.source[kept - 1]) < period_ns / 2) {
            ++s.duplicates;
            continue;
        }
        s.source[kept++] = s.source[i];
    }
    s.source.resize(kept);
    s.size = kept;
    s.unusual = list_unusual(TimestampColumn{s}, SequenceColumn{s}, s.size, period_ns, sequences);
    return s;
}

}  // namespace ppsbench::stats::detail
