// SPDX-License-Identifier: GPL-2.0-or-later
// The output formats: one row each. A new format is its renderer file plus one row here;
// --format, its --help text, the error message and report's check of --histogram all read
// this table.
#include <fmt/format.h>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/suggest.hpp"
#include "ppsbench/render/renderer.hpp"

namespace ppsbench::render {

// Defined in src/render/<name>_renderer.cpp.
std::unique_ptr<Renderer> make_text_renderer();
std::unique_ptr<Renderer> make_markdown_renderer();
std::unique_ptr<Renderer> make_csv_renderer();
std::unique_ptr<Renderer> make_json_renderer();

namespace {

struct Format {
    std::string_view name;
    std::string_view alias;  // "" for none
    std::unique_ptr<Renderer> (*make)();
    // Why the format cannot hold `report --histogram`, with the fix; "" when its renderer shows
    // the histograms (Renderer::render_report: by default a text chart after the tables).
    std::string_view no_histogram = "";
};

constexpr Format formats[] = {
    {"text", "", make_text_renderer},
    {"markdown", "md", make_markdown_renderer},
    {"csv", "", make_csv_renderer,
     "a CSV holds one table; use --format json for the histogram as data, or text for the "
     "chart"},
    {"json", "", make_json_renderer},
};

const Format* find_format(std::string_view format) {
    for (const auto& f : formats) {
        if (format == f.name || (!f.alias.empty() && format == f.alias)) {
            return &f;
        }
    }
    return nullptr;
}

}  // namespace

std::unique_ptr<Renderer> make_renderer(std::string_view format) {
    if (const auto* f = find_format(format)) {
        return f->make();
    }
    std::vector<std::string> names;
    for (const auto& f : formats) {
        names.emplace_back(f.name);
    }
    throw core::UsageError(fmt::format("--format {}: use {}{}", format, format_names(),
                                       core::did_you_mean(format, names)));
}

std::optional<std::string> histogram_refusal(std::string_view format) {
    const auto* f = find_format(format);
    if (f == nullptr || f->no_histogram.empty()) {
        return std::nullopt;  // an unknown format is refused by make_renderer()
    }
    return std::string(f->no_histogram);
}

std::string format_names() {
    std::string names;
    const std::size_t n = std::size(formats);
    for (std::size_t i = 0; i < n; ++i) {
        names +=
            std::string(i == 0 ? "" : (i + 1 == n ? " or " : ", ")) + std::string(formats[i].name);
    }
    return names;
}

}  // namespace ppsbench::render
