// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ppsbench::core {

// Which clock a timestamp was read from. PPS devices stamp CLOCK_REALTIME in the interrupt path;
// GPIO line events on the v1 uAPI stamp CLOCK_MONOTONIC, which has no top of the second. `tai`
// is a PTP hardware clock on the TAI timescale (linuxptp's ts2phc keeps it there: UTC + 37 s
// since 2017), as imported from ts2phc's log: its seconds are true seconds, but not UTC's, so
// its timestamps must not be paired with CLOCK_REALTIME ones (a `ptp:` capture is converted to
// CLOCK_REALTIME and is `realtime`).
enum class ClockId : std::uint8_t { realtime, monotonic, tai };

// True when the clock's whole seconds are true seconds (realtime: UTC, tai: TAI), so that a
// pulse's phase is its offset from the nearest whole second; false for the monotonic clock.
constexpr bool counts_true_seconds(ClockId clock) {
    return clock != ClockId::monotonic;
}

// RFC 2783 names the two edges of a pulse "assert" and "clear"; for GPIO sources a rising edge
// is the assert edge and a falling edge the clear edge.
enum class Edge : std::uint8_t { assert_edge, clear_edge };

// What the user asked to capture.
enum class EdgeSelection : std::uint8_t { assert_only, clear_only, both };

// How a capture recorded its pulses, a fact apart from the period P that folds the phase
// (docs/methodology.md §1): every edge of the train (a PPS device, a GPIO line, a simulator),
// every edge with losses (a log of each sample a daemon accepted, such as chrony's refclocks
// log), or sampled: one filtered sample per poll, as ntpd's peerstats logs, where the seconds
// between two samples are never missed pulses and the poll may change within a file.
enum class Cadence : std::uint8_t { every_edge, every_edge_with_losses, sampled };

// Whether the sequence numbers are the kernel's event counter (RFC 2783, the PTP event index)
// or numbers an importer made up from the timestamps. Only the kernel's prove anything: a
// clock step, a missed pulse, an event never read.
enum class SequenceEvidence : std::uint8_t { kernel, synthetic };

// One captured edge. Kept small and trivially copyable: the capture loop moves these through
// caller-owned buffers without allocating.
struct Pulse {
    // The kernel's sequence number for this edge (RFC 2783 assert/clear sequence, or the GPIO
    // event counter). Gaps in it are missed pulses.
    std::uint64_t sequence = 0;
    // Integer nanoseconds since the clock's epoch. int64 holds ±292 years, so no precision is
    // lost before the statistics convert to double.
    std::int64_t timestamp_ns = 0;
    Edge edge = Edge::assert_edge;

    friend bool operator==(const Pulse&, const Pulse&) = default;
};

// The timestamps a capture file may hold: 0 … 2^62 − 1 ns since the clock's epoch (1970 … 2116
// on the realtime clock, 146 years of uptime on the boot clock). No PPS clock reads outside it,
// so a value beyond is a damaged line; within it, the difference of any two timestamps, and
// that plus a clock step, fit in int64.
inline constexpr std::int64_t max_timestamp_ns = (std::int64_t{1} << 62) - 1;

// One range for every reader and writer: the capture writer refuses a pulse outside it, and
// the importers skip such a line naming the range, so an import never writes a file that
// report calls damaged.
constexpr bool is_capture_time(std::int64_t ns) {
    return ns >= 0 && ns <= max_timestamp_ns;
}

std::string_view to_string(ClockId clock);
std::string_view to_string(Edge edge);
std::string_view to_string(EdgeSelection edges);
std::string_view to_string(Cadence cadence);  // "every-edge", "every-edge-with-losses", "sampled"
std::string_view to_string(SequenceEvidence evidence);  // "kernel", "synthetic"
std::optional<Cadence> parse_cadence(std::string_view text);
std::optional<SequenceEvidence> parse_sequence_evidence(std::string_view text);
std::optional<ClockId> parse_clock_id(std::string_view text);
std::optional<Edge> parse_edge(std::string_view text);
std::optional<EdgeSelection> parse_edge_selection(std::string_view text);

bool selects(EdgeSelection selection, Edge edge);

}  // namespace ppsbench::core
