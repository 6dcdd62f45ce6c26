// SPDX-License-Identifier: GPL-2.0-or-later
// `ppsbench calibrate`: the constant for chrony's refclock offset (and ntpd's time1) from a
// path's lateness against a reference.
#include <fmt/format.h>
#include <iostream>

#include "command.hpp"
#include "input_files.hpp"
#include "options.hpp"
#include "ppsbench/analysis/calibration.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/file_plan.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/render/calibration_text.hpp"

namespace ppsbench::app {
namespace {

constexpr std::string_view kCalibrateUsage = "ppsbench calibrate CAPTURE... [OPTIONS]";

// One line per paragraph: wrap_text fills each to the terminal's width.
constexpr std::string_view kCalibrateDescription =
    "Turn a PPS path's lateness against a reference into the constant chrony and ntpd need.\n"
    "\n"
    "CAPTURE is the PPS path's file of a two-source run with a reference (ptp:, poll: or, for "
    "a demonstration, sim:reference): 'ppsbench run --source pps:/dev/pps0 --source "
    "poll:gpiochip0:18 --count 3600 -o cal.csv', then 'ppsbench calibrate cal-1.csv'. Several "
    "files of one path (rotated parts, sessions) are taken together, in the order given.\n"
    "\n"
    "The constant is the lateness as chrony's refclock filter averages it: per poll (--filter "
    "samples), the samples around the median (all but the lowest and highest fifth) averaged, "
    "then the polls' mean, with a 95 % interval plus the reference's own stated uncertainty. "
    "Printed as chrony's 'refclock PPS ... offset X' and ntpd's 'fudge ... time1 X' (seconds; "
    "a timestamp L late needs +L in both: chrony's refclock.c takes offset - lateness).\n"
    "\n"
    "No constant is given (exit 1) when the lateness is bimodal, drifted over the run, or "
    "there are fewer than 8 polls' edges. A capture without a reference is exit 2. A run that "
    "held /dev/cpu_dma_latency gets a warning: production without the hold is later.";

struct CalibrateArguments {
    InputFiles inputs;
    std::string format = "text";
    std::string edge = "assert";
    std::size_t filter = 16;
    std::string max_drift = "500ns";
};

void declare_calibrate_options(po::options_description& options, CalibrateArguments& a) {
    // clang-format off
    options.add_options()
        ("format,f", po::value(&a.format)->default_value(a.format),
         "text|json (json: the ppsbench.calibration/1 object of docs/calibrate.md)")
        ("edge", po::value(&a.edge)->default_value(a.edge),
         "the edge chrony's refclock takes: assert|clear (its ':clear' option)")
        ("filter", po::value(&a.filter)->default_value(a.filter),
         "samples chrony's filter combines per poll: min(filter, 2^(poll - dpoll)); 16 for a "
         "refclock PPS line's defaults (poll 4, dpoll 0)")
        ("max-drift", po::value(&a.max_drift)->default_value(a.max_drift),
         "refuse when the run's quarters differ by more than this (largest - smallest), beyond "
         "noise");
    // clang-format on
}

analysis::CalibrationSettings check_calibrate_arguments(const CalibrateArguments& a) {
    if (a.inputs.paths.empty()) {
        throw core::UsageError(
            "name the PPS path's capture file of a run with a reference, e.g. 'ppsbench "
            "calibrate cal-1.csv'");
    }
    if (a.format != "text" && a.format != "json") {
        throw core::UsageError(fmt::format("--format {}: use text or json", a.format));
    }
    const auto edge = core::parse_edge(a.edge);
    if (!edge) {
        throw core::UsageError(fmt::format("--edge {}: use assert or clear", a.edge));
    }
    if (a.filter < 1 || a.filter > 65536) {
        throw core::UsageError(fmt::format(
            "--filter {}: give the samples per poll, 1 to 65536 (16 for chrony's defaults)",
            a.filter));
    }
    core::FilePlan plan;
    a.inputs.plan(plan);
    plan.check(false);
    analysis::CalibrationSettings settings;
    settings.filter_samples = a.filter;
    settings.max_drift_ns =
        static_cast<double>(core::parse_duration(a.max_drift, "--max-drift").count());
    return settings;
}

class CalibrateCommand final : public Command {
  public:
    std::string_view name() const override { return "calibrate"; }
    std::string_view summary() const override {
        return "the refclock offset for chrony (and ntpd's time1) from a run with a reference";
    }

    int run(const std::vector<std::string>& args) override {
        CalibrateArguments arguments;
        po::options_description options("Options");
        declare_calibrate_options(options, arguments);
        po::options_description hidden;
        po::positional_options_description positional;
        arguments.inputs.declare(hidden, positional);
        po::variables_map vm;
        if (!parse_options("calibrate", kCalibrateUsage, kCalibrateDescription, args, options,
                           positional, vm, hidden)) {
            return 0;
        }
        const auto settings = check_calibrate_arguments(arguments);
        const auto run = analysis::load_calibration_run(arguments.inputs.paths,
                                                        *core::parse_edge(arguments.edge));
        const auto calibration = analysis::calibrate(run.lateness, settings);
        const render::CalibrationReport report{run, calibration};
        if (const auto warning = render::cpu_dma_latency_warning(report); !warning.empty()) {
            std::cerr << "ppsbench calibrate: " << warning << "\n";
        }
        if (arguments.format == "json") {
            std::cout << render::calibration_json(report).dump(2) << "\n";
        } else {
            std::cout << render::calibration_text(report, settings.confidence);
        }
        return calibration.refusal == analysis::CalibrationRefusal::none ? 0 : 1;
    }
};

}  // namespace

std::unique_ptr<Command> make_calibrate_command() {
    return std::make_unique<CalibrateCommand>();
}

}  // namespace ppsbench::app
