// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What the log importers share: chrony's refclocks.log and tracking.log readers, and import's
// ppstest and peerstats readers. A public header so that import reaches it through the module
// rule (docs/modules.txt); `detail` says it is no interface for users of the library.

#include <cstdint>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/chrony/logs.hpp"

namespace ppsbench::chrony::detail {

// Opens a chrony log for reading, or throws core::InputError naming the path and where chrony
// writes that log (`log_name`: "refclocks.log", "tracking.log").
std::ifstream open_log(const std::string& path, std::string_view log_name);

// chrony's banner: "=====" rules and the column header, repeated every `logbanner` lines.
bool is_banner(std::string_view line);

// A field as it may appear in a message: at most 40 bytes, anything but printable ASCII as
// \xNN, so hostile bytes (invalid UTF-8, control characters) never reach a terminal or JSON.
std::string printable(std::string_view text);

// True when every byte is printable ASCII without spaces (a refid, an address).
bool is_printable_word(std::string_view text);

// "2009-11-30" and "14:33:27" or "14:33:27.000000" (UTC) -> ns since the epoch; nullopt also
// outside 1970..2261, where int64 nanoseconds would overflow.
std::optional<std::int64_t> parse_log_time(std::string_view date, std::string_view time);

// A floating-point log field ("-6.741777e-07"); nullopt unless it parses in full and is finite.
std::optional<double> parse_double(std::string_view text);

// The times one file's lines span, in the order the files were read.
struct FileSpan {
    std::size_t file = 0;  // index into the reader's files
    std::int64_t first_ns = 0;
    std::int64_t last_ns = 0;
};

// The order to read whole files in when they came out of time order without overlapping
// (rotated logs named newest first, as `ls` lists tracking.log.1 before tracking.log.2), oldest
// first: each file's rank in it, by index into `file_count` files (files without a span keep
// the last rank). nullopt when they are to be read as given: already in order, or overlapping
// or interleaved (one file twice in `spans`), where a reader names the lines out of order.
// Every reader of several log files (refclocks.log, peerstats, tracking.log) orders them by this
// one rule.
std::optional<std::vector<std::size_t>> file_ranks_by_time(std::span<const FileSpan> spans,
                                                           std::size_t file_count);

// What the user is told when file_ranks_by_time() reordered: "read oldest first: a, b" (the
// readers' notes add " (the files were given out of time order)").
std::string reordered_note(std::span<const std::size_t> ranks, std::span<const std::string> files);

}  // namespace ppsbench::chrony::detail
