#pragma once

// Internal: analyze()'s first stage. Which pulses are analysed: one edge, in time order, with
// duplicates dropped, and where each came from in the caller's span.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ppsbench/core/pulse.hpp"

namespace ppsbench::stats::detail {

// The pulses are read from the caller's Pulse array, directly in the usual capture (one edge,
// in order, no duplicates), else through an index: copying timestamps and sequence numbers out
// would cost 160 MB at 10 M pulses.
struct Selection {
    std::span<const core::Pulse> pulses;
    std::vector<std::size_t> source;  // unless `identity`: index into `pulses`
    bool identity = true;
    std::size_t size = 0;
    std::size_t other_edge = 0;
    std::size_t duplicates = 0;
    std::size_t out_of_order = 0;

    // Where selected pulse i sits in the caller's span.
    std::size_t pulse(std::size_t i) const { return identity ? i : source[i]; }
};

// Columns of the selected pulses for the per-pulse kernels (train_detail.hpp).
struct TimestampColumn {
    const Selection& s;
    std::int64_t operator[](std::size_t i) const { return s.pulses[s.pulse(i)].timestamp_ns; }
};

struct SequenceColumn {
    const Selection& s;
    std::uint64_t operator[](std::size_t i) const { return s.pulses[s.pulse(i)].sequence; }
};

// The requested edge; by default the assert edge, or the clear edge if there is none.
core::Edge choose_edge(std::span<const core::Pulse> pulses, std::optional<core::Edge> requested);

// A pulse within half a period of the one before it is a duplicate (a replayed line or a
// glitch): the first is kept. Out-of-order pulses are sorted in (stable, by timestamp).
Selection select_pulses(std::span<const core::Pulse> pulses, core::Edge edge,
                        std::int64_t period_ns);

}  // namespace ppsbench::stats::detail
