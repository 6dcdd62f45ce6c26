// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: where a pulse train leaves its usual rhythm. Nearly every interval of a capture is
// about one period long, and its sequence number is the one before plus one. About such an
// interval none of analyze()'s timeline rules has anything to say: it is in time order, no
// duplicate, no time jump, one step of the pulse index, no missed pulse, and it moves the
// unwrapped phase by t_i − t_{i−1} − P. One scan lists the few intervals that are not usual;
// each stage applies its whole rule to those and its closed form to the stretches between
// them, which gives the integers that applying the rule to every interval gives.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ppsbench/core/packed_pulses.hpp"

namespace ppsbench::stats::detail {

struct UnusualIntervals {
    // Usual: t_i − t_{i−1} in [low_ns, high_ns] (within a fifth of the period, inside each
    // rule's own bounds; a stage checks that with within() before it relies on it), and, when
    // `sequences`, a sequence number the one before plus one.
    std::int64_t low_ns = 1;
    std::int64_t high_ns = 0;
    bool sequences = false;
    // Without a list (too many to be worth one: a sampled log, a glitchy line) every interval
    // counts as unusual, and each stage applies its rule to all of them.
    bool listed = false;
    std::vector<std::size_t>
        at;  // ascending: the pulses i ≥ 1 whose interval from i − 1 is unusual

    // A list for period P, empty so far.
    static UnusualIntervals for_period(std::int64_t period_ns, bool sequences);

    // Whether the list holds, and every usual interval lies in a rule's bounds [lo, hi].
    bool within(double lo, double hi) const {
        return listed && static_cast<double>(low_ns) >= lo && static_cast<double>(high_ns) <= hi;
    }
    bool usual(std::int64_t interval_ns) const {
        return static_cast<std::uint64_t>(interval_ns) - static_cast<std::uint64_t>(low_ns) <=
               static_cast<std::uint64_t>(high_ns - low_ns);
    }
    // Lists pulse i (ascending) as unusual; gives up the list when it grows past the point where
    // it saves anything (and would cost memory: 8 bytes an entry). False once given up.
    bool add(std::size_t i, std::size_t n);

    // Over pulses 0 … n − 1, in order: usual(first, last) for each stretch of pulses first …
    // last − 1 that are each one usual interval after the one before, unusual(i) for each other
    // pulse i ≥ 1. Every pulse i ≥ 1 is unusual unless `use_list` (a within() answer).
    template <typename Usual, typename Unusual>
    void walk(std::size_t n, bool use_list, Usual usual, Unusual unusual) const {
        if (!use_list) {
            for (std::size_t i = 1; i < n; ++i) {
                unusual(i);
            }
            return;
        }
        std::size_t first = 1;
        for (const std::size_t e : at) {
            if (e >= n) {
                break;
            }
            if (first < e) {
                usual(first, e);
            }
            unusual(e);
            first = e + 1;
        }
        if (first < n) {
            usual(first, n);
        }
    }
};

// The unusual intervals between consecutive pulses of a capture that holds one edge, in file
// order, with the sequence numbers as evidence if `sequences`; nullopt if a timestamp is
// negative (the selection refuses the capture and names the pulse).
std::optional<UnusualIntervals> scan_file_order(const core::PackedPulses& pulses,
                                                std::int64_t period_ns, bool sequences);

// The scan's inner loop: the first pulse i in [from, to) (from >= 1) whose interval from i − 1
// is not in [low, low + width], in wrapping arithmetic (to if none), OR-ing every timestamp
// t[from] … t[i] into `signs`. first_unusual() takes SSE2 where the machine has it and the
// width is under 2^31, else it is first_unusual_scalar(); the answers and the signs are the
// same.
std::size_t first_unusual(std::span<const std::int64_t> t, std::size_t from, std::size_t to,
                          std::uint64_t low, std::uint64_t width, std::uint64_t& signs);
std::size_t first_unusual_scalar(std::span<const std::int64_t> t, std::size_t from, std::size_t to,
                                 std::uint64_t low, std::uint64_t width, std::uint64_t& signs);

// The same over any column of timestamps and of sequence numbers (the selected pulses).
template <typename Timestamps, typename Sequences>
UnusualIntervals list_unusual(const Timestamps& t, const Sequences& s, std::size_t n,
                              std::int64_t period_ns, bool sequences) {
    UnusualIntervals u = UnusualIntervals::for_period(period_ns, sequences);
    if (!u.listed || n == 0) {
        return u;
    }
    std::int64_t previous = t[0];
    std::uint64_t previous_sequence = sequences ? s[0] : 0;
    for (std::size_t i = 1; i < n && u.listed; ++i) {
        const std::int64_t t_i = t[i];
        bool usual = u.usual(t_i - previous);
        previous = t_i;
        if (sequences) {
            const std::uint64_t sequence = s[i];
            usual = usual && sequence == previous_sequence + 1 && sequence > previous_sequence;
            previous_sequence = sequence;
        }
        if (!usual) {
            u.add(i, n);
        }
    }
    return u;
}

}  // namespace ppsbench::stats::detail
