// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>
#include <vector>

#include "options.hpp"
#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/core/file_plan.hpp"

namespace ppsbench::app {

// The options that shape the statistics, shared by report, compare and gate.
struct AnalysisArguments {
    std::string period;
    std::string edge;
    int detrend = 1;
    double outlier_k = 8.0;
    std::string bin_width;
    std::string run;                       // --run LABEL|N
    std::vector<std::string> chrony_logs;  // --chrony-log FILE, repeatable
    bool join = false;                     // --join: the FILEs are the parts of one run
};

void add_analysis_options(po::options_description& options, AnalysisArguments& arguments);
// The files these options read (--chrony-log), as inputs of the command's plan.
void plan_analysis_inputs(const AnalysisArguments& arguments, core::FilePlan& plan);
// Reads --chrony-log's files too: call it after the plan is checked.
analysis::AnalysisSettings to_settings(const AnalysisArguments& arguments,
                                       const po::variables_map& vm);

// The runs of `paths`: each file's (analysis::load_runs), or with --join the one run of the
// parts of a `run --rotate` (store::read_joined_capture), one run per edge.
std::vector<analysis::RunAnalysis> load_input_runs(const std::vector<std::string>& paths,
                                                   const AnalysisArguments& arguments,
                                                   const analysis::AnalysisSettings& settings);

// Every warning (torn file, no end record, a period that does not fit) goes to stderr, once,
// in every output format, so stdout holds only the table or document asked for.
void print_warnings(const std::vector<analysis::RunAnalysis>& runs);

}  // namespace ppsbench::app
