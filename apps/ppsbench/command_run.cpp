// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <filesystem>

#include "analysis_options.hpp"
#include "command.hpp"
#include "command_run_summary.hpp"
#include "option_uses.hpp"
#include "options.hpp"
#include "ppsbench/capture/cpu_dma_latency.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/file_plan.hpp"
#include "ppsbench/core/option_value.hpp"
#include "ppsbench/session/capture_files.hpp"
#include "ppsbench/session/dual_run.hpp"
#include "ppsbench/session/run_session.hpp"
#include "source_options.hpp"

namespace ppsbench::app {
namespace {

// The options as typed: the settings Boost writes straight into the session's options, and the
// words that are checked into them (to_run_options).
struct RunArguments {
    SourceArguments source;
    session::RunOptions run;
    session::LiveMetricsOptions live;
    std::string duration;
    std::string count;
    std::string timeout;
    std::vector<int> rt_priority;  // one, or one per --source
    std::vector<int> cpu;
    std::string cpu_dma_latency;
    bool quiet = false;
    std::string chrony_mode = "auto";
    std::string chrony_interval = "16s";
    std::string rotate;
    std::string prometheus_interval = "1m";
    std::string progress_interval = "5m";
    bool dual() const { return source.specs.size() == 2; }
};

void declare_run_options(po::options_description& options, RunArguments& arguments) {
    add_source_options(options, arguments.source);
    session::RunOptions& run = arguments.run;
    // clang-format off
    options.add_options()
        ("duration", po::value(&arguments.duration), "capture for this long: 30s, 10m, 1h, 2d")
        ("count", po::value(&arguments.count), "capture this many pulses (instead of --duration)")
        ("label", po::value(&run.label), "name of this run in reports, e.g. stock, rt")
        ("output,o", po::value(&run.output_path),
         "capture file to write (default ppsbench-<UTC time to the ms>.csv, a new file)")
        ("force", po::bool_switch(&run.overwrite),
         "overwrite an existing output file (never the replayed capture, nor one a run is still writing)")
        ("timeout", po::value(&arguments.timeout),
         "give up if no first pulse arrives within this time (default 3 periods, at least 3s)")
        ("rt-priority", po::value(&arguments.rt_priority),
         "run the capture at SCHED_FIFO priority 1-99 (needs root or CAP_SYS_NICE); with two "
         "--source, give it twice for each path's own, in --source order")
        ("cpu", po::value(&arguments.cpu),
         "pin the capture to this CPU; with two --source, give it twice to pin each path's "
         "capture thread to its own CPU, in --source order (e.g. --cpu 2 --cpu 3); a poll: "
         "path's CPU may not be the PPS interrupt's or its irq thread's")
        ("mlock", po::bool_switch(&run.realtime.lock_memory),
         "lock memory so the capture never page-faults (needs root or CAP_IPC_LOCK)")
        ("cpu-dma-latency", po::value(&arguments.cpu_dma_latency),
         "keep every CPU able to wake within this time while capturing, e.g. 0us: written to "
         "/dev/cpu_dma_latency and held until the end, as cyclictest does (needs root or "
         "access to that device)")
        ("quiet,q", po::bool_switch(&arguments.quiet),
         "no live status line (terminal) or progress lines (otherwise) on stderr")
        ("rotate", po::value(&arguments.rotate),
         "start a new capture file every D (e.g. 1h, 1d; seams on multiples of D since "
         "the epoch, 1d = midnight UTC); -o is then a strftime pattern (UTC), e.g. "
         "-o 'pps-%Y%m%dT%H%M%SZ.csv'. No pulse is lost at a seam")
        ("prometheus", po::value(&arguments.live.prometheus_path),
         "keep rolling figures in this file during the run, for node_exporter's textfile "
         "collector (docs/prometheus.md); rewritten atomically, and replaced without --force "
         "when it is empty or ppsbench's own")
        ("prometheus-interval", po::value(&arguments.prometheus_interval)->default_value(arguments.prometheus_interval),
         "how often --prometheus is rewritten: the length of the 'last interval' window")
        ("progress-interval", po::value(&arguments.progress_interval)->default_value(arguments.progress_interval),
         "time between progress lines on stderr when it is not a terminal (journal, nohup)")
        ("chrony", po::value(&arguments.chrony_mode)->default_value(arguments.chrony_mode),
         "sample chronyd (tracking, sources, sourcestats) during the run: auto (for pps and "
         "gpio sources), on, off")
        ("chrony-socket", po::value(&run.chrony_sampler.chronyc.socket),
         "chronyd's command socket, as for 'chronyc -h' (default: chronyc's own)")
        ("chrony-interval", po::value(&arguments.chrony_interval)->default_value(arguments.chrony_interval),
         "time between chrony samples (also sampled at the start and the end)")
        ("chrony-refid", po::value(&run.chrony_sampler.refid),
         "refid of the PPS refclock in chrony (default: from chrony.conf's refclock line "
         "for the device)")
        ("chrony-conf", po::value(&run.chrony_sampler.chrony_conf),
         "chronyd's configuration, for the refclock's refid and the offset it applies "
         "(--prometheus writes it; default /etc/chrony/chrony.conf; give chronyd's -f file)");
    // clang-format on
}

// --duration or --count. A plan beyond max_pulses is a typo that would fill the disk (a
// simulation writes as fast as it can): refuse it before anything is created.
capture::CaptureLimits planned_limits(const RunArguments& arguments, const po::variables_map& vm,
                                      core::Duration period) {
    capture::CaptureLimits limits;
    if (vm.count("duration") != 0U && vm.count("count") != 0U) {
        throw core::UsageError("give --duration or --count, not both");
    }
    if (vm.count("duration") != 0U) {
        limits.duration = core::parse_duration(arguments.duration, "--duration");
    }
    if (vm.count("count") != 0U) {
        limits.count = core::parse_count(arguments.count, "--count", 1, core::max_pulses);
    }
    if (limits.duration) {
        const auto planned =
            static_cast<double>(limits.duration->count()) / static_cast<double>(period.count());
        if (planned > static_cast<double>(core::max_pulses)) {
            throw core::UsageError(fmt::format(
                "--duration {} at --period {}: {:.3g} pulses, more than the {} one run may "
                "plan; shorten the run or lengthen the period",
                arguments.duration, arguments.source.period, planned, core::max_pulses));
        }
    }
    return limits;
}

session::RunOptions::Chrony chrony_mode(const std::string& mode) {
    if (mode == "auto") {
        return session::RunOptions::Chrony::automatic;
    }
    if (mode == "on") {
        return session::RunOptions::Chrony::on;
    }
    if (mode == "off") {
        return session::RunOptions::Chrony::off;
    }
    throw core::UsageError(fmt::format("--chrony {}: use auto, on or off", mode));
}

std::chrono::seconds chrony_interval(const std::string& text) {
    const auto interval = core::parse_duration(text, "--chrony-interval");
    if (interval < std::chrono::seconds{1}) {
        throw core::UsageError(
            fmt::format("--chrony-interval {}: use at least 1s (chronyd updates its figures "
                        "once per poll)",
                        text));
    }
    return std::chrono::duration_cast<std::chrono::seconds>(interval);
}

// --prometheus and the progress lines for the journal (stderr when it is neither a terminal
// nor --quiet): nullopt when neither is wanted.
std::optional<session::LiveMetricsOptions> live_metrics(const RunArguments& arguments,
                                                        bool terminal) {
    session::LiveMetricsOptions live = arguments.live;
    live.interval = core::parse_duration(arguments.prometheus_interval, "--prometheus-interval");
    live.progress_interval =
        core::parse_duration(arguments.progress_interval, "--progress-interval");
    if (live.interval < std::chrono::seconds{1} ||
        live.progress_interval < std::chrono::seconds{1}) {
        throw core::UsageError("--prometheus-interval and --progress-interval: use at least 1s");
    }
    // One progress line per path (a two-path run's name their path).
    live.progress_stream = arguments.quiet || terminal ? nullptr : stderr;
    if (live.prometheus_path.empty() && live.progress_stream == nullptr) {
        return std::nullopt;
    }
    if (live.prometheus_path.empty()) {
        live.interval = live.progress_interval;  // the "last interval" of the lines
    }
    return live;
}

// What a run reads (replay: sources) and writes (the capture, the live Prometheus file): a
// replayed capture is never the one written, nor the metrics file the capture.
core::FilePlan plan_run_files(const RunArguments& arguments, const session::RunOptions& run) {
    core::FilePlan plan;
    constexpr std::string_view replay = "replay:";
    for (const auto& spec : arguments.source.specs) {
        if (spec.starts_with(replay)) {
            plan.read("--source", spec.substr(replay.size()), spec);
        }
    }
    if (arguments.dual() && !run.output_path.empty()) {
        // Without -o the pair's names are claimed when the run starts (claim_default_output_pair).
        for (const auto& path : session::dual_output_paths(run.output_path)) {
            plan.write("-o", path, core::OutputKind::record);
        }
    } else if (!run.output_path.empty()) {
        // With --rotate, the pattern: its folder is checked, each part when it is opened.
        plan.write("-o", run.output_path, core::OutputKind::record);
    }
    if (!arguments.live.prometheus_path.empty()) {
        plan.write("--prometheus", arguments.live.prometheus_path,
                   core::OutputKind::prometheus_state);
    }
    return plan;
}

// A configuration that cannot be read would silently give no refid and no offset.
void check_chrony_conf(const std::string& path) {
    std::error_code ec;
    const bool file = std::filesystem::is_regular_file(path, ec);
    if (!file || ::access(path.c_str(), R_OK) != 0) {
        throw core::InputError(
            fmt::format("--chrony-conf {}: {}; give the file chronyd reads (its -f option, default "
                        "/etc/chrony/chrony.conf)",
                        path, file ? core::errno_message(errno) : "not a readable file"));
    }
}

// What each option of run needs to do something; given without it, it is refused
// (refuse_unused_options). --chrony auto with only sim:/replay: sources samples nothing either,
// but whether a source is this host's hardware is known only once it is open. --quiet with
// --progress-interval is kept: a unit may set the interval and an admin add --quiet.
std::vector<OptionUse> run_option_uses(const RunArguments& arguments, const po::variables_map& vm) {
    std::vector<OptionUse> uses = source_option_uses(arguments.source.specs);
    for (const char* option : {"chrony-socket", "chrony-interval", "chrony-refid", "chrony-conf"}) {
        uses.push_back({option, arguments.chrony_mode != "off",
                        "chrony is not sampled with --chrony off; drop it, or use --chrony on"});
    }
    uses.push_back({"prometheus-interval", given(vm, "prometheus"),
                    "it sets how often --prometheus FILE is rewritten, and there is no "
                    "--prometheus; drop it, or add --prometheus FILE"});
    return uses;
}

// --cpu and --rt-priority: given once, the whole capture (every path's thread inherits it); given
// once per --source, each path's own, in --source order (RunOptions::path_realtime).
void apply_per_path_settings(const RunArguments& arguments, session::RunOptions& run) {
    const std::size_t paths = arguments.source.specs.size() == 2 ? 2 : 1;
    const auto check = [&](const char* option, const std::vector<int>& values) {
        if (values.size() > 1 && values.size() != paths) {
            throw core::UsageError(fmt::format(
                "--{} given {} times for {} --source: give it once for the whole capture{}", option,
                values.size(), paths == 2 ? "two" : "one",
                paths == 2 ? ", or once per --source (in --source order)" : ""));
        }
    };
    check("cpu", arguments.cpu);
    check("rt-priority", arguments.rt_priority);
    if (arguments.cpu.size() == 1) {
        run.realtime.cpu = arguments.cpu.front();
    }
    if (arguments.rt_priority.size() == 1) {
        run.realtime.rt_priority = arguments.rt_priority.front();
    }
    if (arguments.cpu.size() == 2 || arguments.rt_priority.size() == 2) {
        run.path_realtime.resize(2);
        for (std::size_t i = 0; i < 2; ++i) {
            if (arguments.cpu.size() == 2) {
                run.path_realtime[i].cpu = arguments.cpu[i];
            }
            if (arguments.rt_priority.size() == 2) {
                run.path_realtime[i].rt_priority = arguments.rt_priority[i];
            }
        }
    }
}

// Checks the typed words into the session's options: the sources, the run's length, its label
// and files, then how it runs. Nothing is created here, so every refusal comes before a file
// exists; with several mistakes the first in this order is reported.
session::RunOptions to_run_options(const RunArguments& arguments, const po::variables_map& vm) {
    const SourceArguments& source = arguments.source;
    session::RunOptions run = arguments.run;
    if (source.specs.size() > 2) {
        throw core::UsageError(
            fmt::format("{} --source options; give one, or two to compare two paths of one edge",
                        source.specs.size()));
    }
    refuse_unused_options(vm, run_option_uses(arguments, vm));
    run.source_spec = source.spec();
    run.source = to_source_options(source, vm);
    run.limits = planned_limits(arguments, vm, run.source.period);
    core::check_label(run.label, "--label");
    plan_run_files(arguments, run).check(run.overwrite);
    // A simulation without --count or --duration gets a default length: the session
    // decides that from the opened sources (session::effective_limits).
    run.limits.first_pulse_timeout =
        vm.count("timeout") != 0U
            ? core::parse_duration(arguments.timeout, "--timeout")
            : std::max<core::Duration>(std::chrono::seconds{3}, 3 * run.source.period);
    apply_per_path_settings(arguments, run);
    if (vm.count("cpu-dma-latency") != 0U) {
        run.realtime.cpu_dma_latency_us =
            capture::parse_cpu_dma_latency(arguments.cpu_dma_latency, "--cpu-dma-latency");
    }
    run.chrony = chrony_mode(arguments.chrony_mode);
    run.chrony_sampler.interval = chrony_interval(arguments.chrony_interval);
    if (vm.count("chrony-conf") != 0U) {
        check_chrony_conf(run.chrony_sampler.chrony_conf);
    }
    const bool terminal = ::isatty(STDERR_FILENO) != 0;
    if (!arguments.quiet && terminal) {
        run.status_stream = stderr;
    }
    if (vm.count("rotate") != 0U) {
        run.rotate = core::parse_duration(arguments.rotate, "--rotate");
        if (run.output_path.empty()) {
            run.output_path = "ppsbench-%Y%m%dT%H%M%SZ.csv";
        }
        session::check_rotation_pattern(run.output_path, *run.rotate);
    }
    run.live = live_metrics(arguments, terminal);
    return run;
}

class RunCommand final : public Command {
  public:
    std::string_view name() const override { return "run"; }
    std::string_view summary() const override {
        return "capture pulses from a PPS device (or sim/replay) into a capture file";
    }

    int run(const std::vector<std::string>& args) override {
        po::options_description options("Options");
        RunArguments arguments;
        declare_run_options(options, arguments);
        po::variables_map vm;
        if (!parse_options(
                "run", "ppsbench run [--source SPEC] [--duration D | --count N] [OPTIONS]",
                "Capture pulses into a capture file (CSV with a JSON metadata header; "
                "docs/capture-file.md), then print the run's summary. Without --duration or "
                "--count a device runs until Ctrl-C; a simulation makes an hour of pulses.\n\n"
                "Ctrl-C, SIGTERM or SIGHUP stops cleanly: every pulse captured so far is kept "
                "(a SIGHUP ignored by nohup stays ignored). A file-size limit ends it with exit 1 "
                "and every complete line kept.\n\n" +
                    std::string(source_specs_help),
                args, options, {}, vm)) {
            return 0;
        }
        session::RunOptions run = to_run_options(arguments, vm);
        run.command_line = args;
        if (arguments.dual()) {
            return run_dual(run, arguments.source);
        }
        return print_run_summary(session::execute_run(run));
    }
};

}  // namespace

std::unique_ptr<Command> make_run_command() {
    return std::make_unique<RunCommand>();
}

}  // namespace ppsbench::app
