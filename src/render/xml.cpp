// SPDX-License-Identifier: GPL-2.0-or-later
#include "xml.hpp"

#include <fmt/format.h>
#include <ostream>

#include "ppsbench/core/text.hpp"

namespace ppsbench::render {

namespace {

// XML 1.0's Char production: a document holding anything else (a C0 control other than tab,
// newline and return, U+FFFE, U+FFFF) is not well-formed, and a parser stops at it.
bool xml_char(char32_t code) {
    return code == 0x9 || code == 0xA || code == 0xD || (code >= 0x20 && code <= 0xD7FF) ||
           (code >= 0xE000 && code <= 0xFFFD) || (code >= 0x10000 && code <= 0x10FFFF);
}

}  // namespace

std::string xml_escape(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t from = at;
        const auto code = core::next_utf8(text, at);
        const std::string_view character = text.substr(from, at - from);
        // A file name may hold any bytes (a JUnit message names the file); they are shown as
        // \xNN or \uNNNN, as on a terminal, so the document stays well-formed UTF-8.
        if (!code) {
            escaped += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[from]));
            continue;
        }
        if (!xml_char(*code)) {
            escaped += *code < 0x100 ? fmt::format("\\x{:02x}", static_cast<unsigned>(*code))
                                     : fmt::format("\\u{:04x}", static_cast<unsigned>(*code));
            continue;
        }
        switch (*code) {
            case '&':
                escaped += "&amp;";
                break;
            case '<':
                escaped += "&lt;";
                break;
            case '>':
                escaped += "&gt;";
                break;
            case '"':
                escaped += "&quot;";
                break;
            case '\'':
                escaped += "&apos;";
                break;
            default:
                escaped += character;
        }
    }
    return escaped;
}

void write_svg_head(const std::string& title, bool simulated, double width, double height,
                    std::ostream& out) {
    out << fmt::format(
               R"~(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">)~",
               width, height)
        << "\n"
        << fmt::format(R"~(<rect width="{}" height="{}" fill="white"/>)~", width, height) << "\n";
    const std::string shown = title + (simulated ? " — includes SIMULATED runs" : std::string());
    out << fmt::format(R"~(<text x="{}" y="28" text-anchor="middle" font-size="17">{}</text>)~",
                       width / 2, xml_escape(shown))
        << "\n";
}

std::string marker_svg(const RunStyle& style, double x, double y) {
    switch (style.marker) {
        case 1:
            return fmt::format(R"~(<rect x="{:.1f}" y="{:.1f}" width="5" height="5"/>)~", x - 2.5,
                               y - 2.5);
        case 2:
            return fmt::format(R"~(<path d="M{:.1f},{:.1f} l3,5.5 h-6 z"/>)~", x, y - 3.2);
        default:
            return fmt::format(R"~(<circle cx="{:.1f}" cy="{:.1f}" r="2.5"/>)~", x, y);
    }
}

}  // namespace ppsbench::render
