// SPDX-License-Identifier: GPL-2.0-or-later
#include "svg_embed.hpp"

#include <fmt/format.h>
#include <regex>

#include "xml.hpp"

namespace ppsbench::render {

namespace {

struct InkRule {
    const char* file_form;  // as the writers emit it
    const char* page_form;  // what the page draws instead
};

// The writers' inks and the page's: greys become the text colour, faded, so they follow light
// and dark; the halos behind labels take the page's background. The black run colour becomes
// the text colour, so that run stays visible on a dark page. At most one style attribute comes
// out per element (only the halo uses one).
constexpr InkRule inks[] = {
    {R"~(stroke="#333")~", R"~(stroke="currentColor")~"},
    {R"~(stroke="#000000")~", R"~(stroke="currentColor")~"},
    {R"~(fill="#000000")~", R"~(fill="currentColor")~"},
    {R"~(stroke="#ccc")~", R"~(stroke="currentColor" stroke-opacity="0.3")~"},
    {R"~(stroke="#ddd")~", R"~(stroke="currentColor" stroke-opacity="0.2")~"},
    {R"~(stroke="#888")~", R"~(stroke="currentColor" stroke-opacity="0.55")~"},
    {R"~(fill="#555")~", R"~(fill="currentColor" fill-opacity="0.75")~"},
    {R"~(fill="#666")~", R"~(fill="currentColor" fill-opacity="0.7")~"},
    {R"~(stroke="white")~", R"~(style="stroke:var(--bg)")~"},
};

void replace_all(std::string& text, std::string_view from, std::string_view to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

}  // namespace

std::string svg_for_page(std::string_view svg, std::string_view id_prefix, std::string_view title) {
    std::string text(svg);
    // The white sheet: the page's own background shows through instead.
    text = std::regex_replace(
        text, std::regex(R"(<rect width="[0-9.]+" height="[0-9.]+" fill="white"/>\n)"), "");
    for (const auto& ink : inks) {
        replace_all(text, ink.file_form, ink.page_form);
    }
    replace_all(text, R"~( id=")~", fmt::format(R"~( id="{}-)~", id_prefix));
    replace_all(text, "url(#", fmt::format("url(#{}-", id_prefix));
    const std::string opening = "<svg ";
    const auto open = text.find(opening);
    const auto open_end = text.find('>', open);
    if (open == std::string::npos || open_end == std::string::npos) {
        return text;
    }
    std::string head = text.substr(open, open_end - open);
    // Size, font and ink come from the page's CSS (figure svg): tidy and HTML know no SVG
    // presentation attributes on an inline <svg>.
    head = std::regex_replace(head, std::regex(R"( (width|height)="[0-9.]+")"), "");
    head = std::regex_replace(head, std::regex(R"( font-(family|size)="[^"]*")"), "");
    // HTML puts an inline <svg> in the SVG namespace itself; without the xmlns the page names
    // no URL at all, so "nothing fetched" is checkable by a grep.
    head = std::regex_replace(head, std::regex(R"( xmlns="[^"]*")"), "");
    head += R"( role="img")";
    return text.substr(0, open) + head + "><title>" + xml_escape(title) + "</title>" +
           text.substr(open_end + 1);
}

}  // namespace ppsbench::render
