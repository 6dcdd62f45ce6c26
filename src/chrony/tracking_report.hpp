// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Private to the chrony module: a `chronyc tracking` report pasted beside tracking.log, read
// and cross-checked against the log's update it came from (docs/chrony.md, "chronyc tracking
// beside tracking.log").

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ppsbench/chrony/logs.hpp"

namespace ppsbench::chrony::detail {

// The report's 13 lines, in chronyc's order (client.c: process_cmd_tracking()).
inline constexpr std::size_t report_line_count = 13;

// Which of the report's lines this is ("RMS offset      : 0.000000440 seconds" -> 5), by its
// label before the colon; nullopt for any other line.
std::optional<std::size_t> report_label(std::string_view line);

// A whole report (its 13 lines in order, the first at `first_line`), or why not: the line number
// and what is wrong with it.
struct ReportProblem {
    std::size_t line = 0;
    std::string message;
};
std::variant<ChronycTrackingReport, ReportProblem> parse_report(std::span<const std::string> lines,
                                                                const std::string& file,
                                                                std::size_t first_line);

// What a part of a report lacks: "a `chronyc tracking` report without 'RMS offset', ... (4 of
// its 13 lines)".
std::string partial_report_message(std::span<const std::size_t> labels);

// What is known of the recomputed RMS offset at one entry of the log.
struct RmsAtEntry {
    bool from_start = false;         // its process's first entry is chronyd's start-up line
    std::size_t moving_updates = 0;  // RmsOffsetTracker::moving_updates()
    bool close_call = false;         // RmsOffsetTracker::close_call()
    double max_abs_offset_ns = 0.0;  // the largest |Offset| of the process up to here
};

// Where an entry was read: "tracking.log", 17.
struct EntryPlace {
    std::string file;
    std::size_t line = 0;
};

struct ReportCheck {
    std::vector<std::string> notes;
    std::vector<std::string> warnings;
};

// Each report against the log's update it came from (entries, places and rms index alike).
ReportCheck cross_check_reports(std::span<const ChronycTrackingReport> reports,
                                std::span<const TrackingLogEntry> entries,
                                std::span<const EntryPlace> places,
                                std::span<const RmsAtEntry> rms);

}  // namespace ppsbench::chrony::detail
