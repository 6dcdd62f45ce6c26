// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: what the XML outputs (the SVG plots, JUnit) share. Labels and file names come from
// users; escaped here, once, so a '&' or '<' in a label cannot break a document.

#include <array>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>

namespace ppsbench::render {

// Text for XML character data and attribute values (either quote style).
std::string xml_escape(std::string_view text);

// Okabe–Ito, colour-blind safe: overlaid runs stay distinguishable, and a run keeps its colour
// across the offset plot and the stability plot.
inline constexpr std::array<const char*, 7> run_colours = {
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};

inline const char* run_colour(std::size_t run) {
    return run_colours[run % run_colours.size()];
}

// Past seven runs the colours repeat, so each round of the palette has its own line pattern and
// marker: runs 1 and 8 share blue, but one is solid with circles, the other dashed with squares.
// 21 runs are told apart; the legend shows both.
struct RunStyle {
    const char* colour;
    const char* dash;    // "" for a solid line
    std::size_t marker;  // 0 circle, 1 square, 2 triangle
};

inline RunStyle run_style(std::size_t run) {
    constexpr std::array<const char*, 3> dashes = {"", "7 3", "2 2"};
    const std::size_t round = (run / run_colours.size()) % dashes.size();
    return {run_colour(run), dashes[round], round};
}

// The start of a plot's SVG document (svg_plot.cpp, stability_plot.cpp): its size, a white
// sheet and the title centred on top, marked when the plot includes simulated runs.
void write_svg_head(const std::string& title, bool simulated, double width, double height,
                    std::ostream& out);

// A data point in the run's marker shape, centred on (x, y), filled by the enclosing group.
std::string marker_svg(const RunStyle& style, double x, double y);

// ` stroke-dasharray="7 3"`, or nothing for a solid line.
inline std::string dash_attribute(const RunStyle& style) {
    return *style.dash == '\0' ? std::string()
                               : std::string(R"( stroke-dasharray=")") + style.dash + '"';
}

}  // namespace ppsbench::render
