#include "ppsbench/report/renderer.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/suggest.hpp"

namespace ppsbench::report {

void Renderer::render_all(const std::vector<Table>& tables, std::ostream& out) const {
    for (std::size_t i = 0; i < tables.size(); ++i) {
        if (i > 0) {
            out << "\n";
        }
        render(tables[i], out);
    }
}

std::unique_ptr<Renderer> make_renderer(std::string_view format) {
    if (format == "text") {
        return make_text_renderer();
    }
    if (format == "markdown" || format == "md") {
        return make_markdown_renderer();
    }
    if (format == "csv") {
        return make_csv_renderer();
    }
    if (format == "json") {
        return make_json_renderer();
    }
    throw core::UsageError(
        fmt::format("--format {}: use text, markdown, csv or json{}", format,
                    core::did_you_mean(format, {"text", "markdown", "csv", "json"})));
}

std::size_t display_width(std::string_view text) {
    // Count code points: every UTF-8 byte that is not a continuation byte starts one.
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
    }));
}

}  // namespace ppsbench::report
