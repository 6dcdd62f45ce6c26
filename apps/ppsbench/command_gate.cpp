#include <fmt/format.h>
#include <cmath>
#include <iostream>
#include <sstream>
#include <tuple>

#include "analysis_options.hpp"
#include "command.hpp"
#include "options.hpp"
#include "output_files.hpp"
#include "output_path.hpp"
#include "ppsbench/analysis/gate.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/option_value.hpp"
#include "ppsbench/render/gate_text.hpp"

namespace ppsbench::app {
namespace {

class GateCommand final : public Command {
  public:
    std::string_view name() const override { return "gate"; }
    std::string_view summary() const override {
        return "CI regression gate: exit 1 when jitter regressed beyond the limits";
    }

    int run(const std::vector<std::string>& args) override {
        po::options_description options("Options");
        std::string baseline_path;
        std::vector<std::string> files;
        std::string max_sigma;
        std::string max_p2p;
        std::string max_rms;
        std::string junit;
        analysis::GateLimits limits;
        double max_ratio = 0;
        std::string max_missed;
        std::vector<std::string> maxima;
        std::string max_bias_growth;
        std::string min_pulses = std::to_string(analysis::GateLimits::default_min_pulses);
        bool force = false;
        AnalysisArguments analysis;
        // clang-format off
        options.add_options()
            ("baseline,b", po::value(&baseline_path),
             "reference run: a capture file or a JSON summary from 'report --format json'")
            ("max-ratio", po::value(&max_ratio),
             "fail when σ/σ(baseline) exceeds this with statistical support (e.g. 1.25)")
            ("max-sigma", po::value(&max_sigma), "fail when σ exceeds this (e.g. 3us)")
            ("max-p2p", po::value(&max_p2p), "fail when peak-to-peak exceeds this (e.g. 20us)")
            ("max-rms-offset", po::value(&max_rms),
             "fail when chrony's RMS offset at the end exceeds this (e.g. 1us)")
            ("max-missed", po::value(&max_missed), "fail when more pulses were missed")
            ("max", po::value(&maxima)->composing(),
             "METRIC=LIMIT: fail when any figure of the metric registry exceeds the limit "
             "(repeatable; e.g. p99=10us, detrended_sigma=2us, outliers=5; keys as for report "
             "--metrics)")
            ("max-bias-growth", po::value(&max_bias_growth),
             "fail when the median bias against a hardware reference (a ptp: path of the same "
             "two-source run) grew over the baseline's by more than this, with statistical "
             "support (e.g. 2us); an absolute limit is --max bias_median=5us")
            ("min-pulses", po::value(&min_pulses)->default_value(min_pulses),
             "refuse (exit 2) a run with fewer pulses: below this no limit can be judged")
            ("confidence", po::value(&limits.confidence)
                 ->default_value(limits.confidence, human_default(limits.confidence)),
             "confidence level for the ratio rule")
            ("junit", po::value(&junit), "also write the checks as JUnit XML to this file")
            ("force", po::bool_switch(&force), "overwrite an existing --junit file");
        // clang-format on
        add_analysis_options(options, analysis);
        po::options_description hidden;
        hidden.add_options()("current", po::value(&files)->multitoken());
        po::positional_options_description positional;
        positional.add("current", -1);
        po::variables_map vm;
        if (!parse_options(
                "gate", "ppsbench gate [--baseline BASE] CURRENT [LIMITS] [--junit FILE]",
                "Checks a run against absolute limits and a limit relative to a baseline. "
                "A relative limit fails only when the regression is statistically supported "
                "(the lower bound of the σ ratio's confidence interval is above it), so an "
                "unchanged but noisy kernel does not fail CI.\nExit status: 0 pass, 1 "
                "regression, 2 bad input.",
                args, options, positional, vm, hidden)) {
            return 0;
        }
        if (files.size() != 1) {
            throw core::UsageError(
                "name exactly one current run, e.g. 'ppsbench gate --baseline stock.csv "
                "rt.csv --max-ratio 1.25'");
        }
        if (vm.count("max-ratio") != 0U) {
            if (!(max_ratio > 0) || !std::isfinite(max_ratio)) {
                throw core::UsageError("--max-ratio: use a positive ratio, e.g. 1.25");
            }
            limits.max_ratio = max_ratio;
        }
        // The shorthands are registry limits with the words the verdict has always used.
        const std::tuple<const char*, const char*, const std::string*, const char*> shorthands[] = {
            {"max-sigma", "sigma", &max_sigma, "σ"},
            {"max-p2p", "p2p", &max_p2p, "peak-to-peak"},
            {"max-rms-offset", "rms_offset", &max_rms, "chrony RMS offset"},
            {"max-missed", "missed", &max_missed, "missed pulses"}};
        for (const auto& [option, key, value, what] : shorthands) {
            if (vm.count(option) != 0U) {
                limits.maxima.push_back(
                    analysis::metric_limit(key, *value, std::string("--") + option, what));
            }
        }
        for (const auto& text : maxima) {
            limits.maxima.push_back(analysis::parse_metric_limit(text, "--max"));
        }
        if (vm.count("max-bias-growth") != 0U) {
            limits.max_bias_growth_ns = static_cast<double>(
                core::parse_duration(max_bias_growth, "--max-bias-growth").count());
        }
        limits.min_pulses = core::parse_count(min_pulses, "--min-pulses", 2, core::max_pulses);
        if (!limits.max_ratio && limits.maxima.empty() && !limits.max_bias_growth_ns) {
            throw core::UsageError(
                "give at least one limit (--max-ratio, --max-sigma, --max-p2p, "
                "--max-rms-offset, --max-missed, --max METRIC=LIMIT, --max-bias-growth)");
        }
        if (limits.max_bias_growth_ns && baseline_path.empty()) {
            throw core::UsageError("--max-bias-growth needs --baseline FILE");
        }
        if (!(limits.confidence > 0 && limits.confidence < 1)) {
            throw core::UsageError("--confidence: use a level between 0 and 1, e.g. 0.95");
        }
        if (limits.max_ratio && baseline_path.empty()) {
            throw core::UsageError("--max-ratio needs --baseline FILE");
        }
        if (!junit.empty()) {
            check_output_path(junit, "--junit", force);
        }
        auto settings = to_settings(analysis, vm);
        settings.keep_series = true;
        const auto current = analysis::load_runs(files.front(), settings);
        std::vector<analysis::RunAnalysis> baseline;
        if (!baseline_path.empty()) {
            baseline = analysis::load_runs(baseline_path, settings);
        }
        if (current.size() != 1 || baseline.size() > 1) {
            throw core::UsageError(
                "the baseline and the current run must be one run each; a capture of both edges "
                "holds two: choose one with --edge assert or --edge clear");
        }
        std::vector<analysis::Metric> limited;
        for (const auto& limit : limits.maxima) {
            limited.push_back(limit.metric);
        }
        analysis::check_taus_computed(limited, current, "--max");
        print_warnings(current);
        print_warnings(baseline);
        const auto result = analysis::evaluate_gate(baseline.empty() ? nullptr : &baseline.front(),
                                                    current.front(), limits);
        std::cout << render::gate_summary(result, current.front());
        if (!junit.empty()) {
            std::ostringstream xml;
            render::write_junit("ppsbench gate " + current.front().label,
                                render::gate_junit(result), xml);
            write_file_atomically(junit, xml.str(), "--junit");
        }
        return result.failed() ? static_cast<int>(core::ExitCode::failed) : 0;
    }
};

}  // namespace

std::unique_ptr<Command> make_gate_command() {
    return std::make_unique<GateCommand>();
}

}  // namespace ppsbench::app
