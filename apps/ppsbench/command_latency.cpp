// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <iostream>

#include "command.hpp"
#include "options.hpp"
#include "ppsbench/analysis/latency_runs.hpp"
#include "ppsbench/capture/cpu_dma_latency.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/file_plan.hpp"
#include "ppsbench/core/option_value.hpp"
#include "ppsbench/render/latency_tables.hpp"
#include "ppsbench/render/renderer.hpp"
#include "ppsbench/session/latency_session.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::app {
namespace {

// The options as typed: the settings that Boost writes straight into the session's options, and
// the words that are checked into them (to_latency_options).
struct LatencyArguments {
    session::LatencyOptions latency;
    std::string interval = "10ms";
    std::string edge = "both";
    std::string duration;
    std::string count;
    int rt_priority = 0;
    int cpu = -1;
    std::string cpu_dma_latency;
};

void declare_latency_options(po::options_description& options, LatencyArguments& arguments) {
    session::LatencyOptions& latency = arguments.latency;
    // clang-format off
    options.add_options()
        ("drive", po::value(&latency.drive_spec),
         "output line to toggle, CHIP:LINE, e.g. gpiochip0:17")
        ("sense", po::value(&latency.sense_spec),
         "input the drive line is wired to: gpio:CHIP:LINE or pps:/dev/ppsN")
        ("interval", po::value(&arguments.interval)->default_value(arguments.interval),
         "time between driven edges (each edge is measured)")
        ("edge", po::value(&arguments.edge)->default_value(arguments.edge),
         "edges the input captures: both (GPIO), assert (most PPS devices), clear")
        ("count", po::value(&arguments.count), "measure this many edges")
        ("duration", po::value(&arguments.duration), "measure for this long (instead of --count)")
        ("label", po::value(&latency.label), "name of this run in reports, e.g. stock, rt")
        ("output,o", po::value(&latency.output_path),
         "capture file to write (default ppsbench-latency-<UTC time to the ms>.csv, a new file)")
        ("force", po::bool_switch(&latency.overwrite),
         "overwrite an existing output file (never one a run is still writing)")
        ("rt-priority", po::value(&arguments.rt_priority),
         "run at SCHED_FIFO priority 1-99 (needs root or CAP_SYS_NICE)")
        ("cpu", po::value(&arguments.cpu), "pin ppsbench to this CPU")
        ("mlock", po::bool_switch(&latency.realtime.lock_memory),
         "lock memory so the loop never page-faults (needs root or CAP_IPC_LOCK)")
        ("cpu-dma-latency", po::value(&arguments.cpu_dma_latency),
         "keep every CPU able to wake within this time while capturing, e.g. 0us: written to "
         "/dev/cpu_dma_latency and held until the end, as cyclictest does (needs root or "
         "access to that device)")
        ("no-histogram", "print the table only");
    // clang-format on
}

// Checks the typed words in the order a person reads the usage line (what to wire, how long,
// where to write, which edges) and fills in what follows from them: 1000 edges when no length
// is given, and the sense source's period from the interval (one edge of each kind per period).
session::LatencyOptions to_latency_options(const LatencyArguments& arguments,
                                           const po::variables_map& vm) {
    session::LatencyOptions latency = arguments.latency;
    if (latency.drive_spec.empty() || latency.sense_spec.empty()) {
        throw core::UsageError(
            "give --drive CHIP:LINE and --sense gpio:CHIP:LINE or pps:/dev/ppsN, "
            "e.g. --drive gpiochip0:17 --sense gpio:gpiochip0:27");
    }
    if (vm.count("duration") != 0U && vm.count("count") != 0U) {
        throw core::UsageError("give --duration or --count, not both");
    }
    latency.limits.interval = core::parse_duration(arguments.interval, "--interval");
    if (vm.count("duration") != 0U) {
        latency.limits.duration = core::parse_duration(arguments.duration, "--duration");
    }
    if (vm.count("count") != 0U) {
        latency.limits.count = core::parse_count(arguments.count, "--count", 1, core::max_pulses);
    }
    core::check_label(latency.label, "--label");
    // It reads devices only; its one file is the capture.
    core::FilePlan plan;
    if (!latency.output_path.empty()) {
        plan.write("-o", latency.output_path, core::OutputKind::record);
    }
    plan.check(latency.overwrite);
    if (!latency.limits.count && !latency.limits.duration) {
        latency.limits.count = 1000;
    }
    const auto edges = core::parse_edge_selection(arguments.edge);
    if (!edges) {
        throw core::UsageError(fmt::format(
            "--edge {}: use both, assert or clear (or rising/falling)", arguments.edge));
    }
    latency.sense.edges = *edges;
    latency.sense.period = 2 * latency.limits.interval;
    if (vm.count("rt-priority") != 0U) {
        latency.realtime.rt_priority = arguments.rt_priority;
    }
    if (vm.count("cpu") != 0U) {
        latency.realtime.cpu = arguments.cpu;
    }
    if (vm.count("cpu-dma-latency") != 0U) {
        latency.realtime.cpu_dma_latency_us =
            capture::parse_cpu_dma_latency(arguments.cpu_dma_latency, "--cpu-dma-latency");
    }
    return latency;
}

// The table, the two distributions as text histograms, and where the edges went. The exit
// status: failed when the drive or sense line failed mid-run (the records so far are kept).
int print_latency_summary(const session::LatencyOutcome& outcome, bool histogram) {
    const auto summary = analysis::summarize_latency(store::read_capture_file(outcome.output_path));
    render::make_renderer("text")->render(render::latency_table({summary}), std::cout);
    if (histogram) {
        for (const auto& [title, d] : {std::pair{"drive → timestamp", &summary.drive_to_kernel},
                                       std::pair{"timestamp → wake-up", &summary.kernel_to_wake}}) {
            std::cout << "\n" << title << ":\n";
            for (const auto& line : render::histogram_lines(d->histogram)) {
                std::cout << line << "\n";
            }
        }
    }
    std::cout << fmt::format("{} ({}) written to {}\n",
                             counted(outcome.progress.records, "edge", "edges"),
                             capture::to_string(outcome.progress.stop_reason), outcome.output_path);
    if (!outcome.failure.empty()) {
        std::cerr << "ppsbench: " << outcome.failure << "\n";
        return static_cast<int>(core::ExitCode::failed);
    }
    return 0;
}

class LatencyCommand final : public Command {
  public:
    std::string_view name() const override { return "latency"; }
    std::string_view summary() const override {
        return "drive a GPIO output looped back to an input: edge → timestamp → wake-up latency";
    }

    int run(const std::vector<std::string>& args) override {
        po::options_description options("Options");
        LatencyArguments arguments;
        declare_latency_options(options, arguments);
        po::variables_map vm;
        if (!parse_options(
                "latency",
                "ppsbench latency --drive CHIP:LINE --sense gpio:CHIP:LINE|pps:/dev/ppsN\n"
                "                        [--interval 10ms] [--count N | --duration D] "
                "[OPTIONS]",
                "With a jumper wire from an output GPIO to an input, toggles the output and, "
                "for every edge, records the time just before the output was set, the kernel's "
                "timestamp of the edge, and the time ppsbench woke up. Prints the distributions "
                "of drive → timestamp and timestamp → wake-up, and the CPU idle fraction over "
                "the run (docs/latency.md). The file is a capture file with \"kind\":\"latency\" "
                "that 'ppsbench report' reads.",
                args, options, {}, vm)) {
            return 0;
        }
        const bool histogram = vm.count("no-histogram") == 0U;
        session::LatencyOptions latency = to_latency_options(arguments, vm);
        latency.command_line = args;
        return print_latency_summary(session::execute_latency(latency), histogram);
    }
};

}  // namespace

std::unique_ptr<Command> make_latency_command() {
    return std::make_unique<LatencyCommand>();
}

}  // namespace ppsbench::app
