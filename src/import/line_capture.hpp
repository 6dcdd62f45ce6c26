// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Private to the import module: what the capture-like readers of one-event-per-line logs
// (ppswatch, ts2phc, ntpshmmon) share: exact decimal timestamps, and one rule that turns the
// chosen source's events into a capture.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/import/capture_import.hpp"

namespace ppsbench::import::detail {

// "1665570382.000000024" (or with fewer decimals) -> ns since the epoch, exactly; nullopt
// unless it is digits, a point and up to 9 digits, within 0 .. core::max_timestamp_ns.
std::optional<std::int64_t> parse_decimal_ns(std::string_view text);

// One edge as the log printed it, with where it was printed.
struct LoggedEdge {
    std::string source;  // the clock, unit or device it belongs to
    std::int64_t timestamp_ns = 0;
    // The program's own sequence number, when it prints one (ppswatch); else numbered by whole
    // seconds from the first edge.
    std::optional<std::uint64_t> sequence;
    std::string file;
    std::size_t line = 0;
};

// The source to import: `wanted` (which must have edges), else the only one, else an error
// listing each source with its count: "several clocks: /dev/ptp1 (4), /dev/ptp3 (4); pick one
// with --clock". `what` is "clock", `option` "--clock".
std::string chosen_source(const std::map<std::string, std::size_t>& counts,
                          const std::string& wanted, std::string_view what, std::string_view option,
                          const std::string& name);

// The chosen source's edges as a capture: in time order, one pulse per edge of `edge`, an edge
// whose second is not after the previous one skipped and named, gaps counted by report's rule.
// Fills pulses, gaps and the skipped-line account; the caller adds metadata and notes.
CaptureImport capture_from_edges(const std::vector<LoggedEdge>& edges, const std::string& source,
                                 core::Edge edge, chrony::SkippedLines& skipped);

}  // namespace ppsbench::import::detail
