// SPDX-License-Identifier: GPL-2.0-or-later
#include "xml.hpp"

#include <fmt/format.h>
#include <ostream>

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
