// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: an SVG plot written for a file, made fit to sit inline in the HTML page.

#include <string>
#include <string_view>

namespace ppsbench::render {

// The file form of a plot paints fixed inks on a white sheet, which is right for a file opened
// alone. Inline in a page the plot must follow the page: light or dark, screen or print. This
// drops the fixed size and the white sheet, draws axes, greys and text in currentColor (faded
// for the greys) and label halos in the page's --bg variable, prefixes every id (two
// plots in one page both have a "legend"), drops the xmlns (HTML implies it) and names the plot
// with a <title> for screen readers.
// The inks mapped are the ones the SVG writers use (svg_plot.cpp, stability_plot.cpp).
std::string svg_for_page(std::string_view svg, std::string_view id_prefix, std::string_view title);

}  // namespace ppsbench::render
