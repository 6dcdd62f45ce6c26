// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis_options.hpp"

#include <fmt/format.h>
#include <cmath>
#include <iostream>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/option_value.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/store/joined_capture.hpp"
#include "source_options.hpp"

namespace ppsbench::app {

void add_analysis_options(po::options_description& options, AnalysisArguments& arguments) {
    // clang-format off
    options.add_options()
        ("period", po::value(&arguments.period),
         "nominal pulse period, overriding the one recorded in the file (e.g. 100ms); refused "
         "when the pulses are more than 5 % apart from it")
        ("edge", po::value(&arguments.edge),
         "edge to analyse: assert|clear|both (rising|falling accepted); default: every edge "
         "the capture holds, one run each")
        ("detrend", po::value(&arguments.detrend)->default_value(arguments.detrend),
         "degree of the fit removed for detrended residuals: 1 (line) or 2 (quadratic)")
        ("outlier-k", po::value(&arguments.outlier_k)
             ->default_value(arguments.outlier_k, human_default(arguments.outlier_k)),
         "flag |x − median| > k·robust σ as an outlier (flagged, never dropped)")
        ("bin-width", po::value(&arguments.bin_width),
         "bin width of the offset histograms (--histogram, --plot, --html; e.g. 100ns), the "
         "same in every output; default: the 1, 2 or 5 × 10^k ns step at or above the runs' "
         "span / 20")
        ("run", po::value(&arguments.run),
         "LABEL|N: take only this run of each saved summary (report --format json) given, by "
         "its label or its number from 1; refused when no run or several match")
        ("chrony-log", po::value(&arguments.chrony_logs)->composing(),
         "FILE: chronyd's tracking.log (repeat for rotated files, in any order: whole files "
         "are read oldest first, with a warning; overlapping ones are refused): each "
         "capture's chrony figures come from the log's rows within its span, chronyd restarts "
         "respected, instead of the capture's own chrony samples (docs/chrony.md)")
        ("join", po::bool_switch(&arguments.join),
         "the FILEs are parts of one 'run --rotate' run (any order): analyse them as that one "
         "run; refused for a missing part, parts of two runs or overlapping parts");
    // clang-format on
}

void plan_analysis_inputs(const AnalysisArguments& arguments, core::FilePlan& plan) {
    for (const auto& path : arguments.chrony_logs) {
        plan.read("--chrony-log", path);
    }
}

analysis::AnalysisSettings to_settings(const AnalysisArguments& arguments,
                                       const po::variables_map& vm) {
    analysis::AnalysisSettings settings;
    if (vm.count("period") != 0U) {
        settings.period_ns = parse_period(arguments.period).count();
    }
    if (arguments.detrend != 1 && arguments.detrend != 2) {
        throw core::UsageError(
            fmt::format("--detrend {}: use 1 (linear) or 2 (quadratic)", arguments.detrend));
    }
    if (vm.count("edge") != 0U) {
        const auto edges = core::parse_edge_selection(arguments.edge);
        if (!edges) {
            throw core::UsageError(fmt::format(
                "--edge {}: use assert, clear or both (or rising/falling)", arguments.edge));
        }
        settings.edges = *edges;
    }
    settings.detrend_degree = arguments.detrend;
    if (!(arguments.outlier_k > 0) || !std::isfinite(arguments.outlier_k)) {
        throw core::UsageError(
            fmt::format("--outlier-k {}: must be positive, e.g. 8", arguments.outlier_k));
    }
    settings.outlier_k = arguments.outlier_k;
    if (vm.count("run") != 0U) {
        core::check_label(arguments.run, "--run");
        settings.run = arguments.run;
    }
    if (!arguments.chrony_logs.empty()) {
        settings.chrony_log = analysis::read_chrony_log(arguments.chrony_logs);
    }
    if (vm.count("bin-width") != 0U) {
        settings.bin_width_ns =
            static_cast<double>(core::parse_duration(arguments.bin_width, "--bin-width").count());
    }
    return settings;
}

std::vector<analysis::RunAnalysis> load_input_runs(const std::vector<std::string>& paths,
                                                   const AnalysisArguments& arguments,
                                                   const analysis::AnalysisSettings& settings) {
    if (arguments.join) {
        return analysis::analyze_edges(store::read_joined_capture(paths), settings);
    }
    std::vector<analysis::RunAnalysis> runs;
    for (const auto& path : paths) {
        for (auto& run : analysis::load_runs(path, settings)) {
            runs.push_back(std::move(run));
        }
    }
    return runs;
}

void print_warnings(const std::vector<analysis::RunAnalysis>& runs) {
    for (const auto& run : runs) {
        for (const auto& warning : run.warnings) {
            std::cerr << "ppsbench: warning: " << warning << "\n";
        }
    }
}

}  // namespace ppsbench::app
