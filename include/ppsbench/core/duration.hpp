// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace ppsbench::core {

using Duration = std::chrono::nanoseconds;

inline constexpr std::int64_t ns_per_second = 1'000'000'000;

// Parses "10m", "1h", "30s", "100ms", "250us", "1.5s", "2d". The unit is required: a bare
// number ("3") is refused, since a jitter limit of 3 means µs to one user and s to the parser.
// Throws UsageError naming `what` (the option) when the text is not a positive duration.
Duration parse_duration(std::string_view text, std::string_view what);

// "1h 02m 03s", "12.5 s", "100 ms": for status lines and reports.
std::string format_duration(Duration d);

// As an option takes it, to 4 significant digits: "1s", "2.5ms", "250us" (parse_duration reads
// it back), for error messages that suggest a value.
std::string format_duration_option(Duration d);

}  // namespace ppsbench::core
