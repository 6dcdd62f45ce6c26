#include "ppsbench/core/option_value.hpp"

#include <fmt/format.h>
#include <charconv>

#include "ppsbench/core/error.hpp"

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

bool is_printable_utf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7f) {
                return false;
            }
            ++i;
            continue;
        }
        std::size_t length = 0;
        std::uint32_t code = 0;
        std::uint32_t smallest = 0;
        if ((c & 0xe0) == 0xc0) {
            length = 2;
            code = c & 0x1fU;
            smallest = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            length = 3;
            code = c & 0x0fU;
            smallest = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            length = 4;
            code = c & 0x07U;
            smallest = 0x10000;
        } else {
            return false;  // a continuation byte or 0xf8..0xff where a character starts
        }
        if (i + length > text.size()) {
            return false;
        }
        for (std::size_t j = 1; j < length; ++j) {
            const auto next = static_cast<unsigned char>(text[i + j]);
            if ((next & 0xc0) != 0x80) {
                return false;
            }
            code = (code << 6U) | (next & 0x3fU);
        }
        const bool surrogate = code >= 0xd800 && code <= 0xdfff;
        const bool c1_control = code >= 0x80 && code <= 0x9f;
        if (code < smallest || code > 0x10ffff || surrogate || c1_control) {
            return false;
        }
        i += length;
    }
    return true;
}

void check_label(std::string_view text, std::string_view option) {
    if (!is_printable_utf8(text)) {
        throw UsageError(fmt::format(
            "{}: the label is not valid UTF-8 or holds a control character (newline, tab, "
            "escape); use printable text, e.g. --label \"6.1 PREEMPT_RT\"",
            option));
    }
}

}  // namespace ppsbench::core
