// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/latency/distribution.hpp"
#include "ppsbench/stats/summary.hpp"

namespace ppsbench::latency {

// The capture-file columns a monotonic-clock path carries in a dual-path run: CLOCK_REALTIME −
// CLOCK_MONOTONIC sampled when the pulse was read, and the width of the bracketing reads.
inline constexpr std::string_view offset_column = "realtime_offset_ns";
inline constexpr std::string_view bracket_column = "offset_bracket_ns";

// One pulse of a path on the common time base.
struct TimedPulse {
    std::int64_t time_ns = 0;
    core::Edge edge = core::Edge::assert_edge;
    std::size_t index = 0;  // into the path's capture file
};

// The clock both paths are compared on: CLOCK_REALTIME when either path is on it (a monotonic
// timestamp can be moved to realtime with the offset sampled beside it, but a realtime one
// carries no monotonic offset), else CLOCK_MONOTONIC.
core::ClockId common_clock(core::ClockId a, core::ClockId b);

struct PairedEdge {
    std::size_t a = 0;  // indices into the two TimedPulse series
    std::size_t b = 0;
    std::int64_t difference_ns = 0;  // b − a: positive when path B is later
};

struct Pairing {
    std::vector<PairedEdge> pairs;
    std::size_t unpaired_a = 0;
    std::size_t unpaired_b = 0;
};

// Pairs the two series edge by edge: a pulse of A and one of B of the same edge are paired when
// each is the other's nearest and they are less than `window_ns` apart (P/2 for period P: two
// sightings of one edge can be no further apart without being closer to a neighbouring edge).
// A pulse one path missed leaves its partner unpaired instead of shifting every later pair.
Pairing pair_edges(std::span<const TimedPulse> a, std::span<const TimedPulse> b,
                   std::int64_t window_ns);

// A polled reference (poll:) sees only the periods it polled. The edge of a period between two
// polled edges `before` ≤ t < `next` is interpolated linearly by period count, at most
// `max_interpolation_periods` apart (further, a run of missed windows, and the interpolation
// error outgrows the budget): the reference time of the path's pulse at `t`, nullopt when it
// cannot be interpolated. In integers: a CLOCK_REALTIME time as a double is only good to 256 ns.
// report (analysis::reference_lateness) and the live bias use this one definition.
inline constexpr std::int64_t max_interpolation_periods = 4;
std::optional<std::int64_t> interpolated_edge(std::int64_t before_ns, std::int64_t next_ns,
                                              std::int64_t t_ns, std::int64_t period_ns);

// How the realtime − monotonic offset moved over a path's run (for the report's caveats;
// analysis::time_base_stats reads it from a capture file's offset columns).
struct TimeBaseStats {
    std::size_t samples = 0;
    std::int64_t max_bracket_ns = 0;   // worst uncertainty of one conversion is ± half this
    std::int64_t drift_ns = 0;         // last − first offset: net step over the run
    std::int64_t largest_jump_ns = 0;  // largest change between consecutive samples: a step
};

// Two paths' report: each path's jitter, and the per-edge difference B − A.
struct DualSummary {
    std::string label_a;
    std::string label_b;
    bool simulated = false;
    core::ClockId clock = core::ClockId::realtime;
    std::int64_t period_ns = 0;
    // Phase offsets on the common clock when it is realtime (a GPIO path gets a top of the
    // second through the conversion); period jitter when both paths are monotonic.
    std::string jitter_measure;
    stats::Summary jitter_a;
    stats::Summary jitter_b;
    std::size_t pulses_a = 0;
    std::size_t pulses_b = 0;
    std::size_t pairs = 0;
    std::size_t unpaired_a = 0;
    std::size_t unpaired_b = 0;
    Distribution difference;  // B − A in ns, over paired edges
    double fraction_b_later = 0;
    std::optional<TimeBaseStats> time_base_a;
    std::optional<TimeBaseStats> time_base_b;
};

// The figures of two paths' pulses on one clock: each path's jitter, the edge pairing (window
// P/2) and the B − A distribution. Labels, `simulated` and the time bases are the reader's
// (analysis::summarize_dual).
DualSummary compare_paths(std::span<const TimedPulse> a, std::span<const TimedPulse> b,
                          core::ClockId clock, std::int64_t period_ns);

}  // namespace ppsbench::latency
