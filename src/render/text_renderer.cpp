// SPDX-License-Identifier: GPL-2.0-or-later
#include <algorithm>
#include <string>
#include <vector>

#include "column_layout.hpp"
#include "ppsbench/render/renderer.hpp"

namespace ppsbench::render {

namespace {

void pad(std::ostream& out, std::size_t n) {
    out << std::string(n, ' ');
}

// Tables fit a 100-column terminal or issue comment when they can: long headers go on two
// lines, and footnotes wrap.
constexpr std::size_t max_width = 100;

// "raw PPS jitter (σ)" → {"raw PPS", "jitter (σ)"}: the split at a space that makes the longer
// line shortest; a title without spaces stays on one line.
std::vector<std::string> split_title(const std::string& title) {
    std::size_t best = std::string::npos;
    std::size_t best_width = display_width(title);
    for (std::size_t at = title.find(' '); at != std::string::npos; at = title.find(' ', at + 1)) {
        const std::size_t w =
            std::max(display_width(title.substr(0, at)), display_width(title.substr(at + 1)));
        if (w < best_width) {
            best = at;
            best_width = w;
        }
    }
    if (best == std::string::npos) {
        return {title};
    }
    return {title.substr(0, best), title.substr(best + 1)};
}

std::string wrap(const std::string& text, std::size_t width) {
    std::string out;
    std::size_t column = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        auto end = text.find(' ', start);
        if (end == std::string::npos) {
            end = text.size();
        }
        const std::string word = text.substr(start, end - start);
        if (column > 0 && column + 1 + display_width(word) > width) {
            out += "\n";
            column = 0;
        } else if (column > 0) {
            out += ' ';
            ++column;
        }
        out += word;
        column += display_width(word);
        start = end + 1;
    }
    return out;
}

// Aligned columns for a terminal: the first (labels) left-aligned, figures right-aligned.
class TextRenderer final : public Renderer {
  public:
    void render(const Table& table, std::ostream& out) const override {
        const auto cells = format_for_people(table);
        std::vector<std::vector<std::string>> headers;
        for (const auto& h : cells.headers) {
            headers.push_back({h});
        }
        const auto measure = [&] {
            std::vector<std::size_t> widths;
            for (std::size_t c = 0; c < headers.size(); ++c) {
                std::size_t w = 0;
                for (const auto& part : headers[c]) {
                    w = std::max(w, display_width(part));
                }
                for (const auto& row : cells.rows) {
                    w = std::max(w, display_width(row[c]));
                }
                widths.push_back(w);
            }
            return widths;
        };
        auto widths = measure();
        const auto total_of = [](const std::vector<std::size_t>& ws) {
            std::size_t total = 0;
            for (auto w : ws) {
                total += w + 2;
            }
            return total > 2 ? total - 2 : 0;
        };
        if (total_of(widths) > max_width) {
            for (std::size_t c = 1; c < headers.size(); ++c) {
                headers[c] = split_title(cells.headers[c]);
            }
            widths = measure();
        }
        const std::size_t header_lines =
            std::max_element(headers.begin(), headers.end(), [](const auto& a, const auto& b) {
                return a.size() < b.size();
            })->size();
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
        // Header lines are bottom-aligned: a one-line title sits on the last line.
        for (std::size_t l = 0; l < header_lines; ++l) {
            std::vector<std::string> row;
            for (const auto& parts : headers) {
                const std::size_t skip = header_lines - parts.size();
                row.push_back(l < skip ? std::string() : parts[l - skip]);
            }
            line(row);
        }
        out << std::string(total_of(widths), '-') << "\n";
        for (const auto& row : cells.rows) {
            line(row);
        }
        for (const auto& note : table.footnotes) {
            out << wrap(note, max_width) << "\n";
        }
    }
};

}  // namespace

std::unique_ptr<Renderer> make_text_renderer() {
    return std::make_unique<TextRenderer>();
}

}  // namespace ppsbench::render
