// SPDX-License-Identifier: GPL-2.0-or-later
#include "xml.hpp"

#include <fmt/format.h>

namespace ppsbench::render {

std::string xml_escape(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (const char c : text) {
        switch (c) {
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
                escaped += c;
        }
    }
    return escaped;
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
