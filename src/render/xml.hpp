#pragma once

// Internal: what the XML outputs (the SVG plots, JUnit) share. Labels and file names come from
// users; escaped here, once, so a '&' or '<' in a label cannot break a document.

#include <array>
#include <cstddef>
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

}  // namespace ppsbench::render
