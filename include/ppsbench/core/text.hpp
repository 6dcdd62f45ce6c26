// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ppsbench::core {

// The words of `text` between runs of blanks (space, tab, CR, LF), as views into `text`: the
// field splitting of chrony's logs, chrony.conf and /proc files.
std::vector<std::string_view> split_whitespace(std::string_view text);

// The code point of the UTF-8 character at text[at], with `at` moved past it; nullopt, with `at`
// moved past one byte, when the bytes there are not valid UTF-8 (a stray or missing
// continuation byte, an overlong form, a surrogate, anything above U+10FFFF).
std::optional<char32_t> next_utf8(std::string_view text, std::size_t& at);

// `text` with every byte that is not part of valid UTF-8 replaced by U+FFFD. Text read from a
// system (process names, chrony.conf, /proc) may hold any bytes; JSON carries only UTF-8.
std::string valid_utf8(std::string_view text);

}  // namespace ppsbench::core
