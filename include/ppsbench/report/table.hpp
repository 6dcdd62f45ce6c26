#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace ppsbench::report {

// A table model separate from rendering (as Google Benchmark separates runs from reporters):
// the library fills it with formatted cells; renderers only lay it out.
struct Table {
    std::string title;
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
    // Lines printed under the table (e.g. "simulated data", warnings about a file).
    std::vector<std::string> footnotes;
};

// Aligned plain text: first column left, the rest right-aligned, widths in display columns
// (UTF-8 aware, so "µs" and "σ" do not skew the layout).
void render_text(const Table& table, std::ostream& out);

std::size_t display_width(const std::string& text);

}  // namespace ppsbench::report
