#include <algorithm>

#include "column_layout.hpp"
#include "ppsbench/render/renderer.hpp"

namespace ppsbench::render {

namespace {

void pad(std::ostream& out, std::size_t n) {
    out << std::string(n, ' ');
}

// Aligned columns for a terminal: the first (labels) left-aligned, figures right-aligned.
class TextRenderer final : public Renderer {
  public:
    void render(const Table& table, std::ostream& out) const override {
        const auto cells = format_for_people(table);
        std::vector<std::size_t> widths;
        for (std::size_t c = 0; c < cells.headers.size(); ++c) {
            std::size_t w = display_width(cells.headers[c]);
            for (const auto& row : cells.rows) {
                w = std::max(w, display_width(row[c]));
            }
            widths.push_back(w);
        }
        if (!table.title.empty()) {
            out << table.title << "\n";
        }
        const auto line = [&](const std::vector<std::string>& row) {
            for (std::size_t c = 0; c < widths.size(); ++c) {
                const std::size_t gap = widths[c] - display_width(row[c]);
                if (c == 0) {
                    out << row[c];
                    if (widths.size() > 1) {
                        pad(out, gap);
                    }
                } else {
                    out << "  ";
                    pad(out, gap);
                    out << row[c];
                }
            }
            out << "\n";
        };
        line(cells.headers);
        std::size_t total = 0;
        for (auto w : widths) {
            total += w + 2;
        }
        out << std::string(total > 2 ? total - 2 : 0, '-') << "\n";
        for (const auto& row : cells.rows) {
            line(row);
        }
        for (const auto& note : table.footnotes) {
            out << note << "\n";
        }
    }
};

}  // namespace

std::unique_ptr<Renderer> make_text_renderer() {
    return std::make_unique<TextRenderer>();
}

}  // namespace ppsbench::render
