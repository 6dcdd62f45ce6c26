// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/text.hpp"

#include <algorithm>

namespace ppsbench::core {

std::vector<std::string_view> split_whitespace(std::string_view text) {
    constexpr std::string_view blanks = " \t\r\n";
    std::vector<std::string_view> words;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto start = text.find_first_not_of(blanks, pos);
        if (start == std::string_view::npos) {
            break;
        }
        const auto end = std::min(text.find_first_of(blanks, start), text.size());
        words.push_back(text.substr(start, end - start));
        pos = end;
    }
    return words;
}

std::optional<char32_t> next_utf8(std::string_view text, std::size_t& at) {
    const auto c = static_cast<unsigned char>(text[at]);
    ++at;
    if (c < 0x80) {
        return c;
    }
    std::size_t length = 0;
    char32_t code = 0;
    char32_t smallest = 0;
    if ((c & 0xe0U) == 0xc0U) {
        length = 2;
        code = c & 0x1fU;
        smallest = 0x80;
    } else if ((c & 0xf0U) == 0xe0U) {
        length = 3;
        code = c & 0x0fU;
        smallest = 0x800;
    } else if ((c & 0xf8U) == 0xf0U) {
        length = 4;
        code = c & 0x07U;
        smallest = 0x10000;
    } else {
        return std::nullopt;  // a continuation byte or 0xf8..0xff where a character starts
    }
    const std::size_t start = at - 1;
    if (start + length > text.size()) {
        return std::nullopt;
    }
    for (std::size_t j = 1; j < length; ++j) {
        const auto next = static_cast<unsigned char>(text[start + j]);
        if ((next & 0xc0U) != 0x80U) {
            return std::nullopt;
        }
        code = (code << 6U) | (next & 0x3fU);
    }
    if (code < smallest || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        return std::nullopt;
    }
    at = start + length;
    return code;
}

std::string valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t start = at;
        if (next_utf8(text, at)) {
            out.append(text.substr(start, at - start));
        } else {
            out.append("\xEF\xBF\xBD");  // U+FFFD
        }
    }
    return out;
}

}  // namespace ppsbench::core
