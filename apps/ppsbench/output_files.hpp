#pragma once

#include <string>
#include <vector>

#include "options.hpp"
#include "ppsbench/analysis/run_analysis.hpp"

namespace ppsbench::app {

// Files report and compare can write besides the table: an SVG plot and Prometheus metrics.
struct OutputFiles {
    std::string plot;        // --plot FILE.svg
    std::string prometheus;  // --prometheus FILE.prom
    bool wants_series() const { return !plot.empty(); }
};

void add_output_file_options(po::options_description& options, OutputFiles& outputs);
void write_output_files(const OutputFiles& outputs, const std::vector<analysis::RunAnalysis>& runs);

}  // namespace ppsbench::app
