// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <iostream>

#include "analysis_options.hpp"
#include "command.hpp"
#include "input_files.hpp"
#include "options.hpp"
#include "output_files.hpp"
#include "ppsbench/analysis/comparison.hpp"
#include "ppsbench/analysis/distinct_labels.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/comparison_view.hpp"
#include "ppsbench/render/renderer.hpp"

namespace ppsbench::app {
namespace {

// compare's command line as typed.
struct CompareArguments {
    std::string baseline_path;
    InputFiles inputs;
    std::string format = "text";
    std::string metrics = "rms_offset,sigma,p2p";
    double confidence = 0.95;
    OutputFiles outputs;
    AnalysisArguments analysis;
};

void declare_compare_options(po::options_description& options, CompareArguments& a) {
    // clang-format off
    options.add_options()
        ("baseline,b", po::value(&a.baseline_path)->required(),
         "the run the others are compared with (capture file or saved JSON summary)")
        ("format,f", po::value(&a.format)->default_value(a.format), render::format_names().c_str())
        ("metrics,m", po::value(&a.metrics)->default_value(a.metrics),
         ("columns, comma-separated (chrony's RMS offset is left out when no run has it): " +
          analysis::metric_names()).c_str())
        ("confidence", po::value(&a.confidence)->default_value(a.confidence, human_default(a.confidence)),
         "confidence level of the σ-ratio intervals");
    // clang-format on
    add_analysis_options(options, a.analysis);
    add_output_file_options(options, a.outputs);
}

// What each option needs to do something here (refuse_unused_options).
std::vector<OptionUse> compare_option_uses(const CompareArguments& a) {
    std::vector<OptionUse> uses{
        {"bin-width", a.outputs.wants_series(),
         "it sets the histogram bins of --plot and --html, and there is neither; drop it, or "
         "add --plot FILE.svg"}};
    const auto files = output_file_uses(a.outputs);
    uses.insert(uses.end(), files.begin(), files.end());
    return uses;
}

// Refuses what cannot be done before any file is read.
void check_compare_arguments(const CompareArguments& a, const po::variables_map& vm) {
    if (a.inputs.paths.empty()) {
        throw core::UsageError(
            "name the runs to compare after the baseline, e.g. 'ppsbench compare "
            "--baseline stock.csv rt.csv'");
    }
    if (!(a.confidence > 0 && a.confidence < 1)) {
        throw core::UsageError("--confidence: use a level between 0 and 1, e.g. 0.95");
    }
    refuse_unused_options(vm, compare_option_uses(a));
    core::FilePlan plan;
    plan.read("--baseline", a.baseline_path);
    plan_analysis_inputs(a.analysis, plan);
    a.inputs.plan(plan);
    plan_output_files(a.outputs, plan);
    plan.check(a.outputs.force);
}

// The baseline (one run) first, then every run of the other files, with their series: the
// bootstrap resamples the pulses.
std::vector<analysis::RunAnalysis> load_compared_runs(const CompareArguments& a,
                                                      const po::variables_map& vm) {
    auto settings = to_settings(a.analysis, vm);
    settings.keep_series = true;
    std::vector<analysis::RunAnalysis> runs = analysis::load_runs(a.baseline_path, settings);
    if (runs.size() != 1) {
        throw core::UsageError(fmt::format(
            "--baseline {}: holds {} runs; a baseline is one run (a saved summary: choose one "
            "with --run LABEL|N; a capture of both edges: choose one with --edge)",
            a.baseline_path, runs.size()));
    }
    for (auto& run : load_input_runs(a.inputs.paths, a.analysis, settings)) {
        runs.push_back(std::move(run));
    }
    // Two rows called "sim: threaded" could not be told apart in the table, plot or JSON.
    analysis::make_labels_distinct(runs);
    return runs;
}

class CompareCommand final : public Command {
  public:
    std::string_view name() const override { return "compare"; }
    std::string_view summary() const override {
        return "one table of several runs with ratios to a baseline and a verdict";
    }

    int run(const std::vector<std::string>& args) override {
        CompareArguments arguments;
        po::options_description options("Options");
        declare_compare_options(options, arguments);
        po::options_description hidden;
        po::positional_options_description positional;
        arguments.inputs.declare(hidden, positional);
        po::variables_map vm;
        if (!parse_options("compare", "ppsbench compare --baseline FILE FILE... [OPTIONS]",
                           "Prints one row per run, like the write-up's tables, then each run's "
                           "σ as a ratio to the baseline with its confidence interval and a "
                           "verdict: 'not noise' only when the interval excludes 1.",
                           args, options, positional, vm, hidden)) {
            return 0;
        }
        check_compare_arguments(arguments, vm);
        const auto renderer = render::make_renderer(arguments.format);
        // A typo fails before files are read.
        auto columns = analysis::parse_metrics(arguments.metrics);
        const auto runs = load_compared_runs(arguments, vm);
        analysis::check_taus_computed(columns, runs, "--metrics");
        // No run has chrony's RMS offset (a capture's samples, or a saved summary's figure):
        // drop the empty column.
        if (vm["metrics"].defaulted() &&
            std::none_of(runs.begin(), runs.end(), [&](const analysis::RunAnalysis& run) {
                return std::isfinite(columns.front().value(run));
            })) {
            columns.erase(columns.begin());
        }
        const std::vector<analysis::RunAnalysis> others(runs.begin() + 1, runs.end());
        print_warnings(runs);
        const auto comparison =
            analysis::compare(runs.front(), others, columns, arguments.confidence);
        const auto table = render::comparison_table(comparison, runs);
        renderer->render_comparison(comparison, table, std::cout);
        const auto bin_width_ns = to_settings(arguments.analysis, vm).bin_width_ns;
        write_output_files(arguments.outputs, runs, bin_width_ns);
        auto page = render::HtmlPage::of("ppsbench compare", {table});
        page.bin_width_ns = bin_width_ns;
        write_html_file(arguments.outputs.html, std::move(page), runs,
                        arguments.outputs.plot_log_counts);
        return 0;
    }
};

}  // namespace

std::unique_ptr<Command> make_compare_command() {
    return std::make_unique<CompareCommand>();
}

}  // namespace ppsbench::app
