#include <fstream>
#include <iostream>
#include <optional>

#include "analysis_options.hpp"
#include "command.hpp"
#include "options.hpp"
#include "output_files.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/latency/latency_summary.hpp"
#include "ppsbench/report/renderer.hpp"
#include "ppsbench/report/run_tables.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::app {
namespace {

class ReportCommand final : public Command {
  public:
    std::string_view name() const override { return "report"; }
    std::string_view summary() const override {
        return "print the jitter statistics of capture files (text, Markdown, CSV, JSON)";
    }

    int run(const std::vector<std::string>& args) override {
        po::options_description options("Options");
        std::vector<std::string> files;
        std::string format = "text";
        std::string metrics;
        bool verbose = false;
        bool histogram = false;
        OutputFiles outputs;
        AnalysisArguments analysis;
        // clang-format off
        options.add_options()
            ("format,f", po::value(&format)->default_value(format),
             "text, markdown, csv or json (json: the documented ppsbench.report/1 schema)")
            ("metrics,m", po::value(&metrics),
             ("columns to show, comma-separated: " + report::metric_names()).c_str())
            ("verbose,v", po::bool_switch(&verbose),
             "also the distribution, detrended and period-jitter, events and stability tables")
            ("histogram", po::bool_switch(&histogram), "also a text histogram of each run");
        // clang-format on
        add_analysis_options(options, analysis);
        add_output_file_options(options, outputs);
        po::options_description hidden;
        hidden.add_options()("file", po::value(&files)->multitoken());
        po::positional_options_description positional;
        positional.add("file", -1);
        po::variables_map vm;
        if (!parse_options("report", "ppsbench report FILE... [OPTIONS]",
                           "Reads capture files and prints one row per run: pulses, missed "
                           "pulses, and the mean, σ, peak-to-peak, RMS and p99 of the phase "
                           "offset (docs/metrics.md).",
                           args, options, positional, vm, hidden)) {
            return 0;
        }
        if (files.empty()) {
            throw core::UsageError(
                "name at least one capture file, e.g. 'ppsbench report stock.csv'");
        }
        const auto renderer = report::make_renderer(format);
        // A mistyped metric fails before any file is read.
        std::optional<std::vector<report::Metric>> chosen;
        if (vm.count("metrics") != 0U) {
            chosen = report::parse_metrics(metrics);
        }
        auto settings = to_settings(analysis, vm);
        settings.keep_series = outputs.wants_series();
        std::vector<report::RunAnalysis> runs;
        for (const auto& path : files) {
            for (auto& run : report::load_runs(path, settings)) {
                runs.push_back(std::move(run));
            }
        }
        if (format == "json") {
            std::cout << report::report_json(runs).dump(2) << "\n";
        } else if (verbose) {
            renderer->render_all(report::detail_tables(runs), std::cout);
        } else {
            const auto columns = chosen ? *chosen : report::default_metrics(runs);
            renderer->render(report::runs_table(runs, columns), std::cout);
            if (const auto chrony = report::chrony_table(runs)) {
                std::cout << "\n";
                renderer->render(*chrony, std::cout);
            }
        }
        // Latency files (ppsbench latency) also get their two delay distributions.
        std::vector<latency::LatencySummary> latency_runs;
        for (const auto& run : runs) {
            if (run.meta.value("kind", std::string()) == "latency") {
                latency_runs.push_back(
                    latency::summarize_latency(store::read_capture_file(run.file)));
            }
        }
        if (!latency_runs.empty() && format != "json") {
            std::cout << "\n";
            renderer->render(latency::latency_table(latency_runs), std::cout);
        }
        if (histogram) {
            std::cout << "\n" << report::ascii_histograms(runs);
        }
        write_output_files(outputs, runs);
        return 0;
    }
};

}  // namespace

std::unique_ptr<Command> make_report_command() {
    return std::make_unique<ReportCommand>();
}

}  // namespace ppsbench::app
