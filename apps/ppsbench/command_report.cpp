// SPDX-License-Identifier: GPL-2.0-or-later
#include <fstream>
#include <iostream>
#include <optional>

#include "analysis_options.hpp"
#include "command.hpp"
#include "input_files.hpp"
#include "options.hpp"
#include "output_files.hpp"
#include "ppsbench/analysis/report.hpp"
#include "ppsbench/analysis/shared_bins.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/html_page.hpp"
#include "ppsbench/render/latency_tables.hpp"
#include "ppsbench/render/renderer.hpp"
#include "ppsbench/render/run_tables.hpp"

namespace ppsbench::app {
namespace {

// report's command line as typed.
struct ReportArguments {
    InputFiles inputs;
    std::string format = "text";
    std::string metrics;
    bool verbose = false;
    bool histogram = false;
    OutputFiles outputs;
    AnalysisArguments analysis;
};

void declare_report_options(po::options_description& options, ReportArguments& a) {
    // clang-format off
    options.add_options()
        ("format,f", po::value(&a.format)->default_value(a.format),
         (render::format_names() + " (json: the documented ppsbench.report/2 schema)").c_str())
        ("metrics,m", po::value(&a.metrics),
         ("columns to show, comma-separated: " + analysis::metric_names()).c_str())
        ("verbose,v", po::bool_switch(&a.verbose),
         "also the distribution, detrended and period-jitter, events and stability tables")
        ("histogram", po::bool_switch(&a.histogram),
         "also a histogram of each run, on the same bins for every run (--bin-width): a text "
         "chart; in JSON, data under each run");
    // clang-format on
    add_analysis_options(options, a.analysis);
    add_output_file_options(options, a.outputs);
}

// What each option needs to do something here (refuse_unused_options). The JSON document holds
// every figure whatever the columns and tables asked for.
std::vector<OptionUse> report_option_uses(const ReportArguments& a) {
    const bool json = a.format == "json";
    std::vector<OptionUse> uses{
        {"metrics", !a.verbose,
         "--verbose shows every table whatever the columns; drop one of the two"},
        {"metrics", !json,
         "the JSON document holds every metric (docs/report-json.md); drop it, or use --format "
         "text, markdown or csv"},
        {"verbose", !json, "the JSON document holds every table's figures; drop it"},
        {"bin-width", a.histogram || a.outputs.wants_series(),
         "it sets the bins of --histogram, --plot and --html, and there is none of them; drop "
         "it, or add --histogram"}};
    const auto files = output_file_uses(a.outputs);
    uses.insert(uses.end(), files.begin(), files.end());
    return uses;
}

// Refuses what cannot be done before any file is read.
void check_report_arguments(const ReportArguments& a, const po::variables_map& vm) {
    if (a.inputs.paths.empty()) {
        throw core::UsageError("name at least one capture file, e.g. 'ppsbench report stock.csv'");
    }
    refuse_unused_options(vm, report_option_uses(a));
    core::FilePlan plan;
    a.inputs.plan(plan);
    plan_analysis_inputs(a.analysis, plan);
    plan_output_files(a.outputs, plan);
    plan.check(a.outputs.force);
    if (const auto refusal = render::histogram_refusal(a.format); a.histogram && refusal) {
        throw core::UsageError("--histogram: " + *refusal);
    }
}

// --verbose: every table; otherwise the chosen (or default) columns and chrony's view. Latency
// files (ppsbench latency) also get their two delay distributions.
std::vector<render::Table> report_tables(
    const analysis::Report& report, bool verbose,
    const std::optional<std::vector<analysis::Metric>>& chosen) {
    const auto& runs = report.runs;
    std::vector<render::Table> tables;
    if (verbose) {
        tables = render::detail_tables(runs);
    } else {
        tables.push_back(
            render::runs_table(runs, chosen ? *chosen : render::default_metrics(runs)));
        if (auto chrony = render::chrony_table(runs)) {
            tables.push_back(std::move(*chrony));
        }
    }
    if (!report.latency.empty()) {
        tables.push_back(render::latency_table(report.latency));
    }
    return tables;
}

// --histogram: the runs' shared bins, for the renderer to show as its format does; a report of
// saved summaries (no pulses) has none, and each run's histogram is then absent.
std::optional<analysis::SharedBins> report_histograms(const ReportArguments& a,
                                                      const analysis::Report& report,
                                                      std::optional<double> bin_width_ns) {
    if (!a.histogram) {
        return std::nullopt;
    }
    auto bins = analysis::shared_bins(report.runs, bin_width_ns);
    if (!bins) {
        bins.emplace();
        bins->counts.resize(report.runs.size());
    }
    return bins;
}

class ReportCommand final : public Command {
  public:
    std::string_view name() const override { return "report"; }
    std::string_view summary() const override {
        return "print the jitter statistics of capture files (text, Markdown, CSV, JSON)";
    }

    int run(const std::vector<std::string>& args) override {
        ReportArguments arguments;
        po::options_description options("Options");
        declare_report_options(options, arguments);
        po::options_description hidden;
        po::positional_options_description positional;
        arguments.inputs.declare(hidden, positional);
        po::variables_map vm;
        if (!parse_options("report", "ppsbench report FILE... [OPTIONS]",
                           "Reads capture files and prints one row per run: pulses, missed "
                           "pulses, and the mean, σ, peak-to-peak, RMS and p99 of the phase "
                           "offset (docs/metrics.md).",
                           args, options, positional, vm, hidden)) {
            return 0;
        }
        check_report_arguments(arguments, vm);
        const auto renderer = render::make_renderer(arguments.format);
        // A mistyped metric fails before any file is read.
        std::optional<std::vector<analysis::Metric>> chosen;
        if (vm.count("metrics") != 0U) {
            chosen = analysis::parse_metrics(arguments.metrics);
        }
        auto settings = to_settings(arguments.analysis, vm);
        // Plots, and the histograms' shared bins, need the series.
        settings.keep_series = arguments.outputs.wants_series() || arguments.histogram;
        const auto report = arguments.analysis.join
                                ? analysis::Report{load_input_runs(arguments.inputs.paths,
                                                                   arguments.analysis, settings),
                                                   {}}
                                : analysis::load_report(arguments.inputs.paths, settings);
        if (chosen) {
            analysis::check_taus_computed(*chosen, report.runs, "--metrics");
        }
        print_warnings(report.runs);
        const auto histograms = report_histograms(arguments, report, settings.bin_width_ns);
        renderer->render_report(report, report_tables(report, arguments.verbose, chosen),
                                histograms ? &*histograms : nullptr, std::cout);
        write_output_files(arguments.outputs, report.runs, settings.bin_width_ns);
        auto page = render::HtmlPage::of("ppsbench report",
                                         report_tables(report, arguments.verbose, chosen));
        page.bin_width_ns = settings.bin_width_ns;
        write_html_file(arguments.outputs.html, std::move(page), report.runs,
                        arguments.outputs.plot_log_counts);
        return 0;
    }
};

}  // namespace

std::unique_ptr<Command> make_report_command() {
    return std::make_unique<ReportCommand>();
}

}  // namespace ppsbench::app
