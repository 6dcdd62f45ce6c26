#include "column_layout.hpp"
#include "ppsbench/render/renderer.hpp"

namespace ppsbench::render {

namespace {

// A '|' inside a cell would end it early in GitHub-flavoured Markdown.
std::string escape(const std::string& text) {
    std::string escaped;
    for (char c : text) {
        if (c == '|') {
            escaped += '\\';
        }
        escaped += c;
    }
    return escaped;
}

// GitHub-flavoured Markdown, ready to paste into a blog post or an issue: the header row
// mirrors the write-up's tables (an empty first header over the row labels).
class MarkdownRenderer final : public Renderer {
  public:
    void render(const Table& table, std::ostream& out) const override {
        const auto cells = format_for_people(table);
        if (!table.title.empty()) {
            out << "**" << escape(table.title) << "**\n\n";
        }
        out << "|";
        for (std::size_t c = 0; c < cells.headers.size(); ++c) {
            out << " " << (c == 0 && cells.headers[c] == "run" ? "" : escape(cells.headers[c]))
                << " |";
        }
        out << "\n|";
        for (std::size_t c = 0; c < cells.headers.size(); ++c) {
            out << (c == 0 ? "---|" : "---:|");
        }
        out << "\n";
        for (const auto& row : cells.rows) {
            out << "|";
            for (const auto& cell : row) {
                out << " " << escape(cell) << " |";
            }
            out << "\n";
        }
        if (!table.footnotes.empty()) {
            out << "\n";
            for (const auto& note : table.footnotes) {
                out << "*" << escape(note) << "*  \n";
            }
        }
    }
};

}  // namespace

std::unique_ptr<Renderer> make_markdown_renderer() {
    return std::make_unique<MarkdownRenderer>();
}

}  // namespace ppsbench::render
