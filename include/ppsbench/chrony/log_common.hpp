// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What the log importers share: chrony's refclocks.log and tracking.log readers, and import's
// ppstest and peerstats readers. A public header so that import reaches it through the module
// rule (docs/modules.txt); `detail` says it is no interface for users of the library.

#include <cstdint>
#include <fstream>
#include <optional>
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

}  // namespace ppsbench::chrony::detail
