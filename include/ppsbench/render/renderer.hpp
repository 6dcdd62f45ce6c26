// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/analysis/comparison.hpp"
#include "ppsbench/analysis/report.hpp"
#include "ppsbench/analysis/shared_bins.hpp"
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
    // `report`: the tables chosen for the runs (by --verbose / --metrics) and the runs they show,
    // and with --histogram the runs' shared bins (nullptr without). What --histogram means is
    // the format's own: by default the tables, then the histograms as a text chart; a markup
    // format may fence the chart, a data format write the report document with the histograms
    // as data. A format that cannot hold one says so in its row (histogram_refusal()).
    virtual void render_report(const analysis::Report& report, const std::vector<Table>& tables,
                               const analysis::SharedBins* histograms, std::ostream& out) const;
    // `compare`: by default its table; a data format may write the comparison document.
    virtual void render_comparison(const analysis::Comparison& comparison, const Table& table,
                                   std::ostream& out) const;
};

// A format by name or alias ("markdown" or "md"). Throws core::UsageError naming the formats.
std::unique_ptr<Renderer> make_renderer(std::string_view format);

// Why `format` cannot carry `report --histogram` ("a CSV holds one table; ..."), from its row;
// nothing when its renderer shows the histograms.
std::optional<std::string> histogram_refusal(std::string_view format);

// The formats as --help and the error message list them: "text, markdown, csv or json".
std::string format_names();

// Display width in terminal columns (UTF-8 code points), so "µs" and "σ" do not skew layout.
std::size_t display_width(std::string_view text);

}  // namespace ppsbench::render
