// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "option_uses.hpp"
#include "options.hpp"
#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/core/file_plan.hpp"
#include "ppsbench/render/html_page.hpp"

namespace ppsbench::app {

// Files report and compare can write besides the table: SVG plots, Prometheus metrics and the
// HTML page.
struct OutputFiles {
    std::string plot;            // --plot FILE.svg
    std::string stability_plot;  // --plot-stability FILE.svg
    bool plot_log_counts = false;
    std::string prometheus;  // --prometheus FILE.prom
    std::string html;        // --html FILE.html: the page for people
    bool force = false;      // --force: overwrite existing plots and pages
    bool wants_series() const { return !plot.empty() || !html.empty(); }
};

// A plot name that does not end in .svg is refused while the options are parsed, before any
// work: the plots are SVG only, and 'p.png' holding SVG would mislead every viewer.
void add_output_file_options(po::options_description& options, OutputFiles& outputs);
// --force and --plot-log-counts do something only with a file to overwrite or a --plot.
std::vector<OptionUse> output_file_uses(const OutputFiles& outputs);
// Declares the plots (records) and the Prometheus file (state) in the command's file plan.
void plan_output_files(const OutputFiles& outputs, core::FilePlan& plan);
// Each through core::write_file_atomically; --plot's histogram on bins of `bin_width_ns`
// (--bin-width), else the default round bins (analysis::shared_bins).
void write_output_files(const OutputFiles& outputs, const std::vector<analysis::RunAnalysis>& runs,
                        std::optional<double> bin_width_ns = std::nullopt);

// --html FILE, declared on its own for gate (report and compare get it with the files above).
void add_html_option(po::options_description& options, std::string& path);
// Writes `page` for `runs` to `path` (atomically, as the other files); nothing when `path` is
// empty. --plot-log-counts shapes the page's histogram as it does --plot's.
void write_html_file(const std::string& path, render::HtmlPage page,
                     const std::vector<analysis::RunAnalysis>& runs, bool log_counts = false);

}  // namespace ppsbench::app
