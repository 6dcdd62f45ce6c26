#pragma once

#include <memory>
#include <ostream>
#include <string_view>
#include <vector>

#include "ppsbench/report/table.hpp"

namespace ppsbench::report {

// Lays out tables; computes nothing. One implementation per output format.
class Renderer {
  public:
    virtual ~Renderer() = default;
    virtual void render(const Table& table, std::ostream& out) const = 0;
    // Several tables in one document (a report of several sections).
    virtual void render_all(const std::vector<Table>& tables, std::ostream& out) const;
};

// "text", "markdown" (or "md"), "csv", "json". Throws core::UsageError naming the formats.
std::unique_ptr<Renderer> make_renderer(std::string_view format);

std::unique_ptr<Renderer> make_text_renderer();
std::unique_ptr<Renderer> make_markdown_renderer();
std::unique_ptr<Renderer> make_csv_renderer();
std::unique_ptr<Renderer> make_json_renderer();

// Display width in terminal columns (UTF-8 code points), so "µs" and "σ" do not skew layout.
std::size_t display_width(std::string_view text);

}  // namespace ppsbench::report
