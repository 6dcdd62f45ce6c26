// SPDX-License-Identifier: GPL-2.0-or-later
#include <string_view>

#include "column_layout.hpp"
#include "ppsbench/render/renderer.hpp"
#include "ppsbench/render/run_tables.hpp"

namespace ppsbench::render {

namespace {

bool alphanumeric(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Labels, file names and notes come from users, so they are text, never markup: CommonMark
// makes any ASCII punctuation after a backslash a literal character. Escaped are the characters
// that start markup (emphasis, code, links, raw HTML, entities, GFM strikethrough) and '|',
// which would end a table cell early; an '_' inside a word (PREEMPT_RT) cannot emphasise and
// stays as typed. GFM's autolinks need no punctuation, so "http://" and "www." are broken by
// escaping their ':' or '.' (rendered as the same text).
std::string escape(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const bool markup = std::string_view("\\`*[]<|~&").find(c) != std::string_view::npos;
        const bool emphasis = c == '_' && !(i > 0 && i + 1 < text.size() &&
                                            alphanumeric(text[i - 1]) && alphanumeric(text[i + 1]));
        const bool url_scheme = c == ':' && text.substr(i + 1, 2) == "//";
        const bool www = c == '.' && i >= 3 &&
                         (text.substr(i - 3, 3) == "www" || text.substr(i - 3, 3) == "WWW");
        if (markup || emphasis || url_scheme || www) {
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
    // The histograms' chart fenced as text: GitHub would otherwise run the bars into one
    // paragraph.
    void render_report(const analysis::Report& report, const std::vector<Table>& tables,
                       const analysis::SharedBins* histograms, std::ostream& out) const override {
        render_all(tables, out);
        if (histograms != nullptr) {
            out << "\n```text\n" << ascii_histograms(report.runs, *histograms) << "```\n";
        }
    }
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
