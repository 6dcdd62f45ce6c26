// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/analysis/comparison.hpp"
#include "ppsbench/analysis/report.hpp"
#include "ppsbench/render/table.hpp"

namespace ppsbench::render {

// Lays out what a command shows; computes nothing. One implementation per output format, each
// in its own src/render/<format>_renderer.cpp, registered by one row in src/render/formats.cpp.
class Renderer {
  public:
    virtual ~Renderer() = default;
    virtual void render(const Table& table, std::ostream& out) const = 0;
    // Several tables in one document (a report of several sections); by default one after the
    // other with a blank line between.
    virtual void render_all(const std::vector<Table>& tables, std::ostream& out) const;
    // `report`: the tables chosen for the runs (by --verbose / --metrics) and the runs they show.
    // By default the tables; a data format may write the report document instead.
    virtual void render_report(const analysis::Report& report, const std::vector<Table>& tables,
                               std::ostream& out) const;
    // `compare`: by default its table; a data format may write the comparison document.
    virtual void render_comparison(const analysis::Comparison& comparison, const Table& table,
                                   std::ostream& out) const;
};

// A format by name or alias ("markdown" or "md"). Throws core::UsageError naming the formats.
std::unique_ptr<Renderer> make_renderer(std::string_view format);

// The formats as --help and the error message list them: "text, markdown, csv or json".
std::string format_names();

// Display width in terminal columns (UTF-8 code points), so "µs" and "σ" do not skew layout.
std::size_t display_width(std::string_view text);

}  // namespace ppsbench::render
