// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ppsbench::core {

// The most pulses one run may plan or a count limit may name: 10⁹ is 31 years of a 1 Hz PPS or
// 11.6 days at 1 kHz, and about 30 GB of capture file. More is a typo (or a negative number
// read as unsigned), not a plan.
inline constexpr std::uint64_t max_pulses = 1'000'000'000;

// Parses a count: decimal digits only (no sign, no exponent, no spaces), at least `min` and at
// most `max`. Throws UsageError naming `option`, the accepted range and an example otherwise:
// "-5" is refused instead of becoming 18446744073709551611.
std::uint64_t parse_count(std::string_view text, std::string_view option, std::uint64_t min,
                          std::uint64_t max);

// True when `text` is valid UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF)
// and holds no control character (C0, DEL, C1) nor a bidirectional or line-breaking format
// character (U+202E, U+2066, U+2028, …): such a label would break JSON, XML, table rows and
// Prometheus label values, or write what it likes on a terminal.
bool is_printable_utf8(std::string_view text);

// `text` as it may be shown: each byte that is not valid UTF-8 and each character
// is_printable_utf8() refuses written as \xNN or \uNNNN, so text read back from a file (a
// label, a source, a file name inside it) reaches no terminal, table, XML or JSON raw.
std::string printable_utf8(std::string_view text);

// Throws UsageError naming `option` unless is_printable_utf8(text).
void check_label(std::string_view text, std::string_view option);

}  // namespace ppsbench::core
