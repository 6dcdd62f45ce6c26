#pragma once

#include <string>

#include "options.hpp"
#include "ppsbench/analysis/run_analysis.hpp"

namespace ppsbench::app {

// The options that shape the statistics, shared by report, compare and gate.
struct AnalysisArguments {
    std::string period;
    int detrend = 1;
    double outlier_k = 8.0;
    std::string bin_width;
};

void add_analysis_options(po::options_description& options, AnalysisArguments& arguments);
analysis::AnalysisSettings to_settings(const AnalysisArguments& arguments,
                                       const po::variables_map& vm);

}  // namespace ppsbench::app
