// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/printable_stream.hpp"

#include <string>
#include <string_view>

#include "ppsbench/core/option_value.hpp"

namespace ppsbench::core {

// Unbuffered: each write goes on at once, in order with what the program writes to stderr
// through stdio (the status line). A character whose bytes arrive in two writes is shown as
// its bytes; messages are written a string at a time, so that does not happen.
std::streamsize PrintableStreamBuf::xsputn(const char* text, std::streamsize count) {
    std::string_view rest(text, static_cast<std::size_t>(count));
    while (!rest.empty()) {
        const std::size_t end = rest.find('\n');
        const std::string shown = printable_utf8(rest.substr(0, end));
        if (target_->sputn(shown.data(), static_cast<std::streamsize>(shown.size())) !=
            static_cast<std::streamsize>(shown.size())) {
            return 0;
        }
        if (end == std::string_view::npos) {
            break;
        }
        if (target_->sputc('\n') == traits_type::eof()) {
            return 0;
        }
        rest.remove_prefix(end + 1);
    }
    return count;
}

PrintableStreamBuf::int_type PrintableStreamBuf::overflow(int_type c) {
    if (traits_type::eq_int_type(c, traits_type::eof())) {
        return traits_type::not_eof(c);
    }
    const char byte = traits_type::to_char_type(c);
    return xsputn(&byte, 1) == 1 ? c : traits_type::eof();
}

int PrintableStreamBuf::sync() {
    return target_->pubsync();
}

}  // namespace ppsbench::core
