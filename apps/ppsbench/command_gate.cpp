// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <cmath>
#include <iostream>
#include <optional>
#include <sstream>
#include <tuple>

#include "analysis_options.hpp"
#include "command.hpp"
#include "input_files.hpp"
#include "option_uses.hpp"
#include "options.hpp"
#include "output_files.hpp"
#include "ppsbench/analysis/gate.hpp"
#include "ppsbench/core/atomic_file.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/file_plan.hpp"
#include "ppsbench/core/option_value.hpp"
#include "ppsbench/render/gate_text.hpp"
#include "ppsbench/render/html_page.hpp"

namespace ppsbench::app {
namespace {

// gate's command line as typed: limits stay text until gate_limits() parses them, so each error
// names its option.
struct GateArguments {
    std::string baseline_path;
    InputFiles inputs;
    double max_ratio = 0;
    std::string max_sigma;
    std::string max_p2p;
    std::string max_rms;
    std::string max_missed;
    std::vector<std::string> maxima;
    std::vector<std::string> minima;
    std::string max_bias_growth;
    std::string min_pulses = std::to_string(analysis::GateLimits::default_min_pulses);
    double confidence = analysis::GateLimits{}.confidence;
    std::string junit;
    std::string html;
    bool force = false;
    AnalysisArguments analysis;
};

void declare_gate_options(po::options_description& options, GateArguments& a) {
    // clang-format off
    options.add_options()
        ("baseline,b", po::value(&a.baseline_path),
         "reference run: a capture file or a JSON summary from 'report --format json'")
        ("max-ratio", po::value(&a.max_ratio),
         "fail when σ/σ(baseline) exceeds this with statistical support (e.g. 1.25)")
        ("max-sigma", po::value(&a.max_sigma), "fail when σ exceeds this (e.g. 3us)")
        ("max-p2p", po::value(&a.max_p2p), "fail when peak-to-peak exceeds this (e.g. 20us)")
        ("max-rms-offset", po::value(&a.max_rms),
         "fail when chrony's RMS offset at the end exceeds this (e.g. 1us); refused (exit 2) "
         "unless chrony was synchronised at the end and in most samples")
        ("max-missed", po::value(&a.max_missed),
         "fail when more pulses were missed; refused (exit 2) on a sampled log (peerstats), "
         "whose gaps are polls")
        ("max", po::value(&a.maxima)->composing(),
         "METRIC=LIMIT: fail when any figure of the metric registry exceeds the limit "
         "(repeatable; e.g. p99=10us, detrended_sigma=2us, outliers=5, duplicates=0; keys as "
         "for report --metrics); a signed figure (mean, median, min, max, bias_mean, "
         "bias_median, bias_p99, bias_max) is bounded on both sides: mean=1us fails on a "
         "mean of -50us; a figure the run holds no evidence for is refused (exit 2): mean, "
         "median or rms of a free-running or monotonic clock, unseen or clock_steps of made-up "
         "sequence numbers (docs/compare-and-gate.md)")
        ("min", po::value(&a.minima)->composing(),
         "METRIC=LIMIT: fail when the figure is below the limit, signed as the figure is "
         "(repeatable; e.g. pulses=3600, bias_median=-1us)")
        ("max-bias-growth", po::value(&a.max_bias_growth),
         "fail when the median bias against a reference (a ptp:, poll: or sim:reference "
         "path of the same two-source run) moved from the baseline's by more than this either "
         "way, with statistical support (e.g. 2us): a calibrated offset then no longer fits; "
         "an absolute limit is --max bias_median=5us")
        ("min-pulses", po::value(&a.min_pulses)->default_value(a.min_pulses),
         "refuse (exit 2) a run with fewer pulses, or a bias limit with fewer reference pairs: "
         "below this no limit can be judged")
        ("confidence", po::value(&a.confidence)
             ->default_value(a.confidence, human_default(a.confidence)),
         "confidence level for the ratio rule")
        ("junit", po::value(&a.junit),
         "also write the checks as JUnit XML to this file, replaced on every run (when it is "
         "empty or ppsbench's own); a gate that cannot judge (exit 2) writes one <error> case "
         "with the reason")
        ("force", po::bool_switch(&a.force),
         "overwrite an existing --html file, or a --junit file ppsbench did not write (never an "
         "input); a gate that cannot judge (exit 2) then replaces the page with a NOT JUDGED one");
    // clang-format on
    add_html_option(options, a.html);
    add_analysis_options(options, a.analysis);
}

// The limits the arguments give, each parsed and checked, and refused unless at least one is
// given and those relative to a baseline have one.
analysis::GateLimits gate_limits(const GateArguments& a, const po::variables_map& vm) {
    analysis::GateLimits limits;
    limits.confidence = a.confidence;
    if (vm.count("max-ratio") != 0U) {
        if (!(a.max_ratio > 0) || !std::isfinite(a.max_ratio)) {
            throw core::UsageError("--max-ratio: use a positive ratio, e.g. 1.25");
        }
        limits.max_ratio = a.max_ratio;
    }
    // The shorthands are registry limits with the words the verdict has always used.
    const std::tuple<const char*, const char*, const std::string*, const char*> shorthands[] = {
        {"max-sigma", "sigma", &a.max_sigma, "σ"},
        {"max-p2p", "p2p", &a.max_p2p, "peak-to-peak"},
        {"max-rms-offset", "rms_offset", &a.max_rms, "chrony RMS offset"},
        {"max-missed", "missed", &a.max_missed, "missed pulses"}};
    for (const auto& [option, key, value, what] : shorthands) {
        if (vm.count(option) != 0U) {
            limits.maxima.push_back(
                analysis::metric_limit(key, *value, std::string("--") + option, what));
        }
    }
    for (const auto& text : a.maxima) {
        limits.maxima.push_back(analysis::parse_metric_limit(text, "--max"));
    }
    for (const auto& text : a.minima) {
        limits.minima.push_back(
            analysis::parse_metric_limit(text, "--min", analysis::MetricLimit::Bound::lower));
    }
    if (vm.count("max-bias-growth") != 0U) {
        limits.max_bias_growth_ns = static_cast<double>(
            core::parse_duration(a.max_bias_growth, "--max-bias-growth").count());
    }
    limits.min_pulses = core::parse_count(a.min_pulses, "--min-pulses", 2, core::max_pulses);
    if (!limits.max_ratio && limits.maxima.empty() && limits.minima.empty() &&
        !limits.max_bias_growth_ns) {
        throw core::UsageError(
            "give at least one limit (--max-ratio, --max-sigma, --max-p2p, "
            "--max-rms-offset, --max-missed, --max METRIC=LIMIT, --min METRIC=LIMIT, "
            "--max-bias-growth)");
    }
    if (limits.max_bias_growth_ns && a.baseline_path.empty()) {
        throw core::UsageError("--max-bias-growth needs --baseline FILE");
    }
    if (!(limits.confidence > 0 && limits.confidence < 1)) {
        throw core::UsageError("--confidence: use a level between 0 and 1, e.g. 0.95");
    }
    if (limits.max_ratio && a.baseline_path.empty()) {
        throw core::UsageError("--max-ratio needs --baseline FILE");
    }
    return limits;
}

// What each option needs to do something here (refuse_unused_options). --confidence only
// matters to --max-ratio (the bias growth's interval has its own level). A --baseline beside
// absolute limits only is kept: its pulses are still checked against --min-pulses, and scripts
// pass it whatever the limits.
std::vector<OptionUse> gate_option_uses(const GateArguments& a, const po::variables_map& vm) {
    return {{"confidence", given(vm, "max-ratio"),
             "it is the level of --max-ratio's interval, and there is no --max-ratio; drop it"},
            {"force", !a.junit.empty() || !a.html.empty(),
             "there is no --junit or --html file to overwrite; drop it"},
            {"bin-width", !a.html.empty(),
             "the gate judges no histogram, and it sets the bins of --html's only; drop it, or "
             "add --html FILE.html"}};
}

// The current run and the baseline (none without --baseline), with their series: the ratio
// rule bootstraps them.
struct GateRuns {
    std::vector<analysis::RunAnalysis> current;   // one run
    std::vector<analysis::RunAnalysis> baseline;  // at most one
    std::optional<double> bin_width_ns;           // --bin-width: the page's histogram bins
};

GateRuns load_gate_runs(const GateArguments& a, const po::variables_map& vm) {
    auto settings = to_settings(a.analysis, vm);
    settings.keep_series = true;
    GateRuns runs;
    runs.bin_width_ns = settings.bin_width_ns;
    runs.current = load_input_runs(a.inputs.paths, a.analysis, settings);
    if (!a.baseline_path.empty()) {
        runs.baseline = analysis::load_runs(a.baseline_path, settings);
    }
    if (runs.current.size() != 1 || runs.baseline.size() > 1) {
        throw core::UsageError(
            "the baseline and the current run must be one run each; a saved summary of "
            "several runs: choose one with --run LABEL|N; a capture of both edges holds two: "
            "choose one with --edge assert or --edge clear");
    }
    return runs;
}

// --html: the verdict page of the baseline (when given) and the current run.
void write_gate_page(const std::string& path, const analysis::GateResult& result,
                     const GateRuns& runs) {
    if (path.empty()) {
        return;
    }
    auto all = runs.baseline;
    all.push_back(runs.current.front());
    auto page = render::gate_page(result, all);
    page.bin_width_ns = runs.bin_width_ns;
    write_html_file(path, std::move(page), all);
}

// The verdict and the JUnit file; exit 1 on a regression.
int judge(const GateArguments& arguments, const po::variables_map& vm) {
    if (arguments.inputs.paths.size() != 1 && !arguments.analysis.join) {
        throw core::UsageError(
            "name exactly one current run, e.g. 'ppsbench gate --baseline stock.csv "
            "rt.csv --max-ratio 1.25' (or the parts of one 'run --rotate' run with --join)");
    }
    const auto limits = gate_limits(arguments, vm);
    const auto runs = load_gate_runs(arguments, vm);
    for (const auto& [bounds, option] :
         {std::pair{&limits.maxima, "--max"}, std::pair{&limits.minima, "--min"}}) {
        std::vector<analysis::Metric> limited;
        for (const auto& limit : *bounds) {
            limited.push_back(limit.metric);
        }
        analysis::check_taus_computed(limited, runs.current, option);
    }
    print_warnings(runs.current);
    print_warnings(runs.baseline);
    const auto& current = runs.current.front();
    const auto result = analysis::evaluate_gate(
        runs.baseline.empty() ? nullptr : &runs.baseline.front(), current, limits);
    std::cout << render::gate_summary(result, current);
    if (!arguments.junit.empty()) {
        std::ostringstream xml;
        render::write_junit("ppsbench gate " + current.label, render::gate_junit(result), xml);
        core::write_file_atomically(arguments.junit, xml.str(), "--junit");
    }
    write_gate_page(arguments.html, result, runs);
    return result.failed() ? static_cast<int>(core::ExitCode::failed) : 0;
}

// A gate that could not judge replaces the JUnit file and the page too, with the reason (an
// <error> case, a NOT JUDGED verdict): an earlier green file must not stay for CI or a person
// to see.
void write_not_judged(const GateArguments& arguments, const core::Error& error) {
    if (!arguments.junit.empty()) {
        std::ostringstream xml;
        render::write_junit("ppsbench gate", {render::junit_not_judged(error.what())}, xml);
        core::write_file_atomically(arguments.junit, xml.str(), "--junit");
    }
    if (!arguments.html.empty()) {
        render::HtmlPage page;
        page.title = "ppsbench gate";
        page.not_judged = error.what();
        write_html_file(arguments.html, std::move(page), {});
    }
}

class GateCommand final : public Command {
  public:
    std::string_view name() const override { return "gate"; }
    std::string_view summary() const override {
        return "CI regression gate: exit 1 when jitter regressed beyond the limits";
    }

    int run(const std::vector<std::string>& args) override {
        GateArguments arguments;
        po::options_description options("Options");
        declare_gate_options(options, arguments);
        po::options_description hidden;
        po::positional_options_description positional;
        arguments.inputs.declare(hidden, positional);
        po::variables_map vm;
        if (!parse_options(
                "gate", "ppsbench gate [--baseline BASE] CURRENT [LIMITS] [--junit FILE]",
                "Checks a run against absolute limits and a limit relative to a baseline. "
                "A relative limit fails only when the regression is statistically supported "
                "(the lower bound of the σ ratio's confidence interval is above it), so an "
                "unchanged but noisy kernel does not fail CI.\n\nExit status: 0 pass, 1 "
                "regression, 2 bad input.",
                args, options, positional, vm, hidden)) {
            return 0;
        }
        // The JUnit file is checked first: it is written even when the gate cannot judge.
        refuse_unused_options(vm, gate_option_uses(arguments, vm));
        core::FilePlan plan;
        plan.read("--baseline", arguments.baseline_path);
        plan_analysis_inputs(arguments.analysis, plan);
        arguments.inputs.plan(plan);
        if (!arguments.junit.empty()) {
            plan.write("--junit", arguments.junit, core::OutputKind::junit_state);
        }
        if (!arguments.html.empty()) {
            plan.write("--html", arguments.html, core::OutputKind::record);
        }
        plan.check(arguments.force);
        try {
            return judge(arguments, vm);
        } catch (const core::Error& e) {
            write_not_judged(arguments, e);
            throw;
        }
    }
};

}  // namespace

std::unique_ptr<Command> make_gate_command() {
    return std::make_unique<GateCommand>();
}

}  // namespace ppsbench::app
