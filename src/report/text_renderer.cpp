#include <algorithm>

#include "ppsbench/report/table.hpp"

namespace ppsbench::report {

std::size_t display_width(const std::string& text) {
    // Count code points: every UTF-8 byte that is not a continuation byte starts one.
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
    }));
}

namespace {
void pad(std::ostream& out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        out << ' ';
    }
}
}  // namespace

void render_text(const Table& table, std::ostream& out) {
    std::vector<std::size_t> widths(table.columns.size(), 0);
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        widths[c] = display_width(table.columns[c]);
        for (const auto& row : table.rows) {
            if (c < row.size()) {
                widths[c] = std::max(widths[c], display_width(row[c]));
            }
        }
    }
    if (!table.title.empty()) {
        out << table.title << "\n";
    }
    const auto line = [&](const std::vector<std::string>& cells) {
        for (std::size_t c = 0; c < widths.size(); ++c) {
            const std::string& cell = c < cells.size() ? cells[c] : std::string();
            const std::size_t gap = widths[c] - display_width(cell);
            if (c > 0) {
                out << "  ";
            }
            if (c == 0) {
                out << cell;
                if (c + 1 < widths.size()) {
                    pad(out, gap);
                }
            } else {
                pad(out, gap);
                out << cell;
            }
        }
        out << "\n";
    };
    line(table.columns);
    std::size_t total = 0;
    for (auto w : widths) {
        total += w;
    }
    total += widths.empty() ? 0 : 2 * (widths.size() - 1);
    for (std::size_t i = 0; i < total; ++i) {
        out << "-";
    }
    out << "\n";
    for (const auto& row : table.rows) {
        line(row);
    }
    for (const auto& note : table.footnotes) {
        out << note << "\n";
    }
}

}  // namespace ppsbench::report
