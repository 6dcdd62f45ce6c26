#pragma once

#include <string>
#include <vector>

#include "option_uses.hpp"
#include "options.hpp"
#include "ppsbench/analysis/run_analysis.hpp"

namespace ppsbench::app {

// Files report and compare can write besides the table: SVG plots and Prometheus metrics.
struct OutputFiles {
    std::string plot;            // --plot FILE.svg
    std::string stability_plot;  // --plot-stability FILE.svg
    bool plot_log_counts = false;
    std::string prometheus;  // --prometheus FILE.prom
    bool force = false;      // --force: overwrite them
    bool wants_series() const { return !plot.empty(); }
};

// A plot name that does not end in .svg is refused while the options are parsed, before any
// work: the plots are SVG only, and 'p.png' holding SVG would mislead every viewer.
void add_output_file_options(po::options_description& options, OutputFiles& outputs);
// --force and --plot-log-counts do something only with a file to overwrite or a --plot.
std::vector<OptionUse> output_file_uses(const OutputFiles& outputs);
// Before any work: each named file can be created (output_path.hpp), --plot names an .svg.
void check_output_files(const OutputFiles& outputs);

// Writes via a temporary file in the same folder and rename, so a reader (node_exporter, a
// browser, CI) never sees a half-written file and a failed write leaves nothing behind.
void write_file_atomically(const std::string& path, const std::string& text, const char* option);
void write_output_files(const OutputFiles& outputs, const std::vector<analysis::RunAnalysis>& runs);

}  // namespace ppsbench::app
