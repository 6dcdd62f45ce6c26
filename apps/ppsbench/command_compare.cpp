#include <fmt/format.h>
#include <iostream>

#include "analysis_options.hpp"
#include "command.hpp"
#include "options.hpp"
#include "output_files.hpp"
#include "ppsbench/analysis/comparison.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/comparison_view.hpp"
#include "ppsbench/render/renderer.hpp"

namespace ppsbench::app {
namespace {

class CompareCommand final : public Command {
  public:
    std::string_view name() const override { return "compare"; }
    std::string_view summary() const override {
        return "one table of several runs with ratios to a baseline and a verdict";
    }

    int run(const std::vector<std::string>& args) override {
        po::options_description options("Options");
        std::string baseline_path;
        std::vector<std::string> files;
        std::string format = "text";
        std::string metrics = "rms_offset,sigma,p2p";
        double confidence = 0.95;
        OutputFiles outputs;
        AnalysisArguments analysis;
        // clang-format off
        options.add_options()
            ("baseline,b", po::value(&baseline_path)->required(),
             "the run the others are compared with (capture file or saved JSON summary)")
            ("format,f", po::value(&format)->default_value(format), render::format_names().c_str())
            ("metrics,m", po::value(&metrics)->default_value(metrics),
             ("columns, comma-separated (chrony's RMS offset is left out when no run has it): " +
              analysis::metric_names()).c_str())
            ("confidence", po::value(&confidence)->default_value(confidence, human_default(confidence)),
             "confidence level of the σ-ratio intervals");
        // clang-format on
        add_analysis_options(options, analysis);
        add_output_file_options(options, outputs);
        po::options_description hidden;
        hidden.add_options()("file", po::value(&files)->multitoken());
        po::positional_options_description positional;
        positional.add("file", -1);
        po::variables_map vm;
        if (!parse_options("compare", "ppsbench compare --baseline FILE FILE... [OPTIONS]",
                           "Prints one row per run, like the write-up's tables, then each run's "
                           "σ as a ratio to the baseline with its confidence interval and a "
                           "verdict: 'not noise' only when the interval excludes 1.",
                           args, options, positional, vm, hidden)) {
            return 0;
        }
        if (files.empty()) {
            throw core::UsageError(
                "name the runs to compare after the baseline, e.g. 'ppsbench compare "
                "--baseline stock.csv rt.csv'");
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw core::UsageError("--confidence: use a level between 0 and 1, e.g. 0.95");
        }
        check_output_files(outputs);
        const auto renderer = render::make_renderer(format);
        auto columns = analysis::parse_metrics(metrics);  // a typo fails before files are read
        auto settings = to_settings(analysis, vm);
        settings.keep_series = true;  // the bootstrap resamples the pulses
        std::vector<analysis::RunAnalysis> runs = analysis::load_runs(baseline_path, settings);
        if (runs.size() != 1) {
            throw core::UsageError(fmt::format(
                "--baseline {}: holds {} runs; a baseline is one run (a capture of both edges: "
                "choose one with --edge)",
                baseline_path, runs.size()));
        }
        for (const auto& path : files) {
            for (auto& run : analysis::load_runs(path, settings)) {
                runs.push_back(std::move(run));
            }
        }
        analysis::check_taus_computed(columns, runs, "--metrics");
        if (vm["metrics"].defaulted() && !runs.front().chrony) {
            columns.erase(columns.begin());  // no chrony data: drop the empty RMS offset column
        }
        const std::vector<analysis::RunAnalysis> others(runs.begin() + 1, runs.end());
        print_warnings(runs);
        const auto comparison = analysis::compare(runs.front(), others, columns, confidence);
        renderer->render_comparison(comparison, render::comparison_table(comparison, runs),
                                    std::cout);
        write_output_files(outputs, runs);
        return 0;
    }
};

}  // namespace

std::unique_ptr<Command> make_compare_command() {
    return std::make_unique<CompareCommand>();
}

}  // namespace ppsbench::app
