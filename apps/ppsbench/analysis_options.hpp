// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>

#include "options.hpp"
#include "ppsbench/analysis/run_analysis.hpp"

namespace ppsbench::app {

// The options that shape the statistics, shared by report, compare and gate.
struct AnalysisArguments {
    std::string period;
    std::string edge;
    int detrend = 1;
    double outlier_k = 8.0;
    std::string bin_width;
    std::string run;  // --run LABEL|N
};

void add_analysis_options(po::options_description& options, AnalysisArguments& arguments);
analysis::AnalysisSettings to_settings(const AnalysisArguments& arguments,
                                       const po::variables_map& vm);

// Every warning (torn file, no end record, a period that does not fit) goes to stderr, once,
// in every output format, so stdout holds only the table or document asked for.
void print_warnings(const std::vector<analysis::RunAnalysis>& runs);

}  // namespace ppsbench::app
