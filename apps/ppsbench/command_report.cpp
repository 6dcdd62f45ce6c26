#include <iostream>

#include "command.hpp"
#include "options.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/latency/latency_summary.hpp"
#include "ppsbench/report/run_summary.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::app {
namespace {

class ReportCommand final : public Command {
  public:
    std::string_view name() const override { return "report"; }
    std::string_view summary() const override {
        return "print the jitter statistics of one or more capture files";
    }

    int run(const std::vector<std::string>& args) override {
        po::options_description options("Options");
        std::vector<std::string> files;
        std::string period;
        // clang-format off
        options.add_options()
            ("file", po::value(&files)->multitoken(), "capture files (positional)")
            ("period", po::value(&period),
             "nominal pulse period, overriding the one recorded in the file");
        // clang-format on
        po::positional_options_description positional;
        positional.add("file", -1);
        po::variables_map vm;
        if (!parse_options("report", "ppsbench report FILE... [OPTIONS]",
                           "Reads capture files and prints one row per run: pulses, missed "
                           "pulses, and the mean, σ, peak-to-peak and RMS of the phase offset "
                           "(docs/methodology.md).",
                           args, options, positional, vm)) {
            return 0;
        }
        if (files.empty()) {
            throw core::UsageError(
                "report: name at least one capture file, e.g. 'ppsbench report stock.csv'");
        }
        std::optional<std::int64_t> period_ns;
        if (vm.count("period") != 0U) {
            period_ns = core::parse_duration(period, "--period").count();
        }
        std::vector<report::RunSummary> runs;
        std::vector<latency::LatencySummary> latency_runs;
        for (const auto& path : files) {
            const auto file = store::read_capture_file(path);
            runs.push_back(report::summarize_run(file, period_ns));
            if (latency::is_latency_file(file)) {
                latency_runs.push_back(latency::summarize_latency(file));
            }
        }
        report::render_text(report::run_table(runs), std::cout);
        if (!latency_runs.empty()) {
            std::cout << "\n";
            report::render_text(latency::latency_table(latency_runs), std::cout);
        }
        return 0;
    }
};

}  // namespace

std::unique_ptr<Command> make_report_command() {
    return std::make_unique<ReportCommand>();
}

}  // namespace ppsbench::app
