// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/option_value.hpp"

#include <fmt/format.h>
#include <charconv>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"

namespace ppsbench::core {

std::uint64_t parse_count(std::string_view text, std::string_view option, std::uint64_t min,
                          std::uint64_t max) {
    std::uint64_t value = 0;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    const bool digits_only =
        !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (!digits_only || ec != std::errc{} || ptr != end || value < min || value > max) {
        throw UsageError(
            fmt::format("{} {}: use a whole number from {} to {}", option, text, min, max));
    }
    return value;
}

namespace {

// C0, DEL and C1 controls, and the Unicode formatting characters that reorder or break what
// follows them on a terminal or in a table: the bidirectional embeddings, overrides and isolates
// (U+202E turns "ssap" into "pass"), the marks, and the line and paragraph separators.
bool unprintable(char32_t code) {
    return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code == 0x061c || code == 0x200e ||
           code == 0x200f || (code >= 0x2028 && code <= 0x202e) ||
           (code >= 0x2066 && code <= 0x2069);
}

}  // namespace

bool is_printable_utf8(std::string_view text) {
    std::size_t at = 0;
    while (at < text.size()) {
        const auto code = next_utf8(text, at);
        if (!code || unprintable(*code)) {
            return false;
        }
    }
    return true;
}

std::string printable_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t from = at;
        const auto code = next_utf8(text, at);
        if (!code) {
            out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[from]));
        } else if (unprintable(*code)) {
            out += *code < 0x100 ? fmt::format("\\x{:02x}", static_cast<unsigned>(*code))
                                 : fmt::format("\\u{:04x}", static_cast<unsigned>(*code));
        } else {
            out.append(text.substr(from, at - from));
        }
    }
    return out;
}

void check_label(std::string_view text, std::string_view option) {
    if (!is_printable_utf8(text)) {
        throw UsageError(fmt::format(
            "{}: the label is not valid UTF-8 or holds a control character (newline, tab, "
            "escape, a bidirectional override); use printable text, e.g. --label \"6.1 "
            "PREEMPT_RT\"",
            option));
    }
}

}  // namespace ppsbench::core
