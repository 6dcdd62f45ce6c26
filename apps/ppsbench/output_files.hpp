#pragma once

#include <string>
#include <vector>

#include "options.hpp"
#include "ppsbench/analysis/run_analysis.hpp"
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
    bool force = false;      // --force: overwrite them
    bool wants_series() const { return !plot.empty() || !html.empty(); }
};

// A plot name that does not end in .svg is refused while the options are parsed, before any
// work: the plots are SVG only, and 'p.png' holding SVG would mislead every viewer.
void add_output_file_options(po::options_description& options, OutputFiles& outputs);
// Before any work: each named file can be created (output_path.hpp), --plot names an .svg.
void check_output_files(const OutputFiles& outputs);

// Writes via a temporary file in the same folder and rename, so a reader (node_exporter, a
// browser, CI) never sees a half-written file and a failed write leaves nothing behind.
void write_file_atomically(const std::string& path, const std::string& text, const char* option);
void write_output_files(const OutputFiles& outputs, const std::vector<analysis::RunAnalysis>& runs);

// --html FILE, declared on its own for gate (report and compare get it with the files above).
void add_html_option(po::options_description& options, std::string& path);
// Writes `page` for `runs` to `path` (atomically, as the other files); nothing when `path` is
// empty. --plot-log-counts shapes the page's histogram as it does --plot's.
void write_html_file(const std::string& path, render::HtmlPage page,
                     const std::vector<analysis::RunAnalysis>& runs, bool log_counts = false);

}  // namespace ppsbench::app
