// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/render/renderer.hpp"

#include <algorithm>

#include "ppsbench/render/run_tables.hpp"

namespace ppsbench::render {

void Renderer::render_all(const std::vector<Table>& tables, std::ostream& out) const {
    for (std::size_t i = 0; i < tables.size(); ++i) {
        if (i > 0) {
            out << "\n";
        }
        render(tables[i], out);
    }
}

void Renderer::render_report(const analysis::Report& report, const std::vector<Table>& tables,
                             const analysis::SharedBins* histograms, std::ostream& out) const {
    render_all(tables, out);
    if (histograms != nullptr) {
        out << "\n" << ascii_histograms(report.runs, *histograms);
    }
}

void Renderer::render_comparison(const analysis::Comparison& /*comparison*/, const Table& table,
                                 std::ostream& out) const {
    render(table, out);
}

std::size_t display_width(std::string_view text) {
    // Count code points: every UTF-8 byte that is not a continuation byte starts one.
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
    }));
}

}  // namespace ppsbench::render
