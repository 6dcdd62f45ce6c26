// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: analyze()'s first stage. Which pulses are analysed: one edge, in time order, with
// duplicates dropped, and where each came from in the caller's span.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ppsbench/core/packed_pulses.hpp"
#include "ppsbench/core/pulse.hpp"
#include "unusual_intervals.hpp"

namespace ppsbench::stats::detail {

// The pulses are read from the caller's packed pulses, directly in the usual capture (one edge,
// in order, no duplicates), else through an index: copying timestamps and sequence numbers out
// would cost 160 MB at 10 M pulses.
struct Selection {
    const core::PackedPulses* pulses = nullptr;
    std::vector<std::size_t> source;  // unless `identity`: index into `pulses`
    bool identity = true;
    std::size_t size = 0;
    std::size_t other_edge = 0;
    std::size_t duplicates = 0;
    std::size_t out_of_order = 0;

    // Clock steps the timestamps themselves prove (classify_interval(): a time jump with
    // contiguous sequence numbers), in file order: from caller's pulse `jump_at[j]` on, the
    // clock reads `correction[j]` ns more than it would have (the sum of the jumps so far).
    // Every later stage reads timestamps with the jumps taken out, so that a +1 year step is
    // one step, not 31 M empty periods.
    std::vector<std::size_t> jump_at;
    std::vector<std::int64_t> jump_ns;
    std::vector<std::int64_t> correction;

    // Where the selected pulses leave their usual rhythm (with the sequence numbers as evidence
    // where analyze() takes them as such): the stages after the selection walk the stretches
    // between these.
    UnusualIntervals unusual;

    // Where selected pulse i sits in the caller's span.
    std::size_t pulse(std::size_t i) const { return identity ? i : source[i]; }

    // The timestamp of the caller's pulse `position`, with the proven jumps taken out.
    std::int64_t timestamp(std::size_t position) const {
        const std::int64_t t = pulses->timestamp_ns(position);
        if (jump_at.empty() || position < jump_at.front()) {
            return t;
        }
        const auto after = std::upper_bound(jump_at.begin(), jump_at.end(), position);
        return t - correction[static_cast<std::size_t>(after - jump_at.begin()) - 1];
    }
};

// Columns of the selected pulses for the per-pulse kernels (train_detail.hpp).
struct TimestampColumn {
    const Selection& s;
    std::int64_t operator[](std::size_t i) const { return s.timestamp(s.pulse(i)); }
};

// The selected timestamps straight from the caller's array, for the usual capture (every pulse
// selected, no time jump taken out): no index and no correction to look up a read.
struct RawTimestampColumn {
    const core::PackedPulses& pulses;
    std::int64_t operator[](std::size_t i) const { return pulses.timestamp_ns(i); }
};

// f(column) with the cheapest column that reads the selected timestamps.
template <typename F>
void with_timestamps(const Selection& s, F f) {
    if (s.identity && s.jump_at.empty()) {
        f(RawTimestampColumn{*s.pulses});
    } else {
        f(TimestampColumn{s});
    }
}

// Read in order (find_missed()), so through a cursor: one per column, not shared.
struct SequenceColumn {
    const Selection& s;
    mutable core::PackedPulses::SequenceCursor cursor{*s.pulses};
    std::uint64_t operator[](std::size_t i) const { return cursor(s.pulse(i)); }
};

// The requested edge; by default the assert edge, or the clear edge if there is none.
core::Edge choose_edge(const core::PackedPulses& pulses, std::optional<core::Edge> requested);

// A pulse within half a period of the one before it is a duplicate (a replayed line or a
// glitch): the first is kept. Out-of-order pulses are sorted in (stable, by timestamp). On a
// clock that can be stepped, time jumps with contiguous sequence numbers are found first (in
// file order) and taken out. Throws core::InputError for a negative timestamp (so that any
// difference of two fits in int64), also after the steps are taken out. `sequences`: whether
// the selection's unusual intervals include sequence skips. `file_order`: scan_file_order()'s
// list, for a capture that holds only `edge`, or null; with it the selection reads only the
// pulses the list names instead of every pulse, three times.
Selection select_pulses(const core::PackedPulses& pulses, core::Edge edge, std::int64_t period_ns,
                        bool clock_can_step, bool sequences,
                        const UnusualIntervals* file_order = nullptr);

}  // namespace ppsbench::stats::detail
