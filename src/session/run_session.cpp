// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/run_session.hpp"

#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <algorithm>
#include <memory>
#include <optional>

#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/capture/signals.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/session/capture_files.hpp"
#include "ppsbench/session/chrony_monitor.hpp"
#include "ppsbench/session/default_name.hpp"
#include "ppsbench/session/status_line.hpp"
#include "ppsbench/store/capture_writer.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"
#include "ppsbench/sysinfo/json.hpp"

#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/utc_time.hpp"

namespace ppsbench::session {

namespace {

std::string host_name() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) {
        return "unknown";
    }
    return name;
}

nlohmann::json kernel_identity() {
    utsname uts{};
    if (uname(&uts) != 0) {
        return nlohmann::json::object();
    }
    return {{"sysname", uts.sysname},
            {"release", uts.release},
            {"version", uts.version},
            {"machine", uts.machine}};
}

// The kernel, PREEMPT_RT and IRQ-threading fingerprint (ppsbench doctor's), recorded with every
// capture from a device so reports can say what configuration a row measured.
nlohmann::json system_fingerprint(const capture::SourceInfo& source) {
    sysinfo::FingerprintOptions options;
    options.pulse_wait = std::chrono::milliseconds{0};  // the capture itself shows pulses
    options.device = source.pps_device;
    try {
        return sysinfo::to_json(sysinfo::read_fingerprint(options));
    } catch (const core::Error&) {
        return nullptr;  // e.g. a device path that is not /dev/ppsN: the capture still works
    }
}

// chronyd is sampled when asked (--chrony on) or, by default, beside this host's own hardware:
// a simulation's or replay's pulses have nothing to do with this host's chronyd. The refclock
// looked up is the source's device unless one was given. nullopt: no sampling.
std::optional<chrony::SamplerOptions> chrony_sampling(const RunOptions& options,
                                                      const capture::SourceInfo& info) {
    const bool sample_chrony =
        options.chrony == RunOptions::Chrony::on ||
        (options.chrony == RunOptions::Chrony::automatic && info.host_hardware);
    if (!sample_chrony) {
        return std::nullopt;
    }
    auto sampler_options = options.chrony_sampler;
    if (sampler_options.device.empty()) {
        sampler_options.device = info.pps_device;
    }
    return sampler_options;
}

// No pulse at all: the file just created holds a header and nothing else; removing it lets a
// retry with the same -o work.
void remove_if_empty(CaptureFiles& files) {
    files.close();
    if (files.pulses_written() == 0) {
        ::unlink(files.current_path().c_str());
    }
}

// Writes the end record and notes the files in the outcome. When the disk filled mid-run, the
// first message (what happened and what is kept) is the one thrown.
void finish_files(CaptureFiles& files, const store::EndRecord& end, RunOutcome& outcome) {
    try {
        files.finish(end);
        outcome.output_path = files.current_path();
        outcome.files = files.paths();
    } catch (const core::MeasurementError&) {
        if (outcome.failure.empty()) {
            throw;
        }
        throw core::MeasurementError(outcome.failure);
    }
}

}  // namespace

store::EndRecord end_record(const capture::CaptureProgress& progress, int signal,
                            const std::string& failure) {
    store::EndRecord end;
    end.stop_reason = progress.stop_reason;
    end.pulses = progress.pulses;
    end.missed_pulses = progress.missed_pulses;
    end.timeouts = progress.timeouts;
    end.elapsed = progress.elapsed;
    if (signal != 0) {
        end.signal = signal;
    }
    if (!failure.empty()) {
        end.failure = failure;
    }
    return end;
}

store::RunMeta make_run_metadata(const RunOptions& options, const capture::SourceInfo& source) {
    store::RunMeta meta;
    meta.label = options.label;
    meta.source = source.spec;
    meta.source_kind = source.kind;
    meta.simulated = source.simulated;
    meta.edges = source.edges;
    meta.period = source.period;
    meta.clock = source.clock;
    meta.cadence = source.cadence;
    meta.poll = source.poll;
    meta.sequences = source.sequences;
    meta.start_realtime_ns = core::realtime_now_ns();
    meta.start_time_precision = core::UtcPrecision::nanoseconds;
    meta.host = host_name();
    meta.kernel = kernel_identity();
    meta.source_details = source.details;
    meta.command_line = options.command_line;
    meta.capture_process =
        store::CaptureProcess{.sched_fifo_priority = options.realtime.rt_priority,
                              .cpu = options.realtime.cpu,
                              .mlock = options.realtime.lock_memory,
                              .cpu_dma_latency_us = options.realtime.cpu_dma_latency_us};
    meta.planned_count = options.limits.count;
    meta.planned_duration = options.limits.duration;
    return meta;
}

capture::CaptureLimits effective_limits(const capture::CaptureLimits& asked,
                                        std::initializer_list<const capture::SourceInfo*> sources) {
    capture::CaptureLimits limits = asked;
    const bool unbounded = std::all_of(sources.begin(), sources.end(), [](const auto* source) {
        return source->endless && !source->paced;
    });
    if (unbounded && !limits.count && !limits.duration) {
        limits.duration = std::chrono::hours{1};
    }
    return limits;
}

// The capture's file: -o, or a default name claimed for this run alone (outcome.output_path).
std::unique_ptr<CaptureFiles> create_capture_files(const RunOptions& options,
                                                   const store::RunMeta& meta,
                                                   RunOutcome& outcome) {
    const bool default_name = options.output_path.empty();
    outcome.output_path = default_name ? claim_default_output("ppsbench-") : options.output_path;
    try {
        // A claimed default name is an empty file of this run's: the writer takes it over.
        return std::make_unique<CaptureFiles>(outcome.output_path, meta,
                                              options.overwrite || default_name, options.rotate);
    } catch (...) {
        if (default_name) {
            ::unlink(outcome.output_path.c_str());
        }
        throw;
    }
}

// chrony first, then the live figures: their last update includes chrony's final sample.
void stop_samplers(std::optional<ChronyMonitor>& chrony, std::optional<LiveMetrics>& live,
                   RunOutcome& outcome) {
    if (chrony) {
        chrony->stop();
        outcome.chrony_notices = chrony->notices();
        chrony.reset();
    }
    if (live) {
        live->stop();
    }
}

RunOutcome execute_run(const RunOptions& options) {
    // Open the source first: a device that cannot be used must not leave an empty file behind.
    auto source = capture::open_source(options.source_spec, options.source);
    const capture::SourceInfo& info = source->info();

    // Then the real-time settings, which can also be refused (no CAP_SYS_NICE, no such CPU).
    const capture::RealtimeGuard realtime(options.realtime);

    RunOptions run = options;
    run.limits = effective_limits(options.limits, {&info});
    RunOutcome outcome;
    outcome.simulated = info.simulated;
    store::RunMeta meta = make_run_metadata(run, info);
    if (info.host_hardware) {
        meta.system = system_fingerprint(info);
    }
    const auto files = create_capture_files(options, meta, outcome);
    CaptureFiles& sink = *files;
    std::optional<LiveMetrics> live;
    if (options.live) {
        // Labelled as `report` will label the capture.
        LiveMetricsOptions live_options = *options.live;
        live_options.label = analysis::run_label(meta, outcome.output_path);
        live.emplace(std::move(live_options), info);
    }

    std::optional<ChronyMonitor> chrony;
    if (const auto sampler_options = chrony_sampling(options, info)) {
        chrony.emplace(*sampler_options, [&sink, &live](const nlohmann::json& sample) {
            sink.write_note("chrony", sample);
            if (live) {
                live->chrony_sample(sample);
            }
        });
    }

    StatusLine status(options.status_stream, info, run.limits,
                      chrony ? &chrony->latest_rms_offset_ns() : nullptr);
    const capture::StopOnSignals signals;
    std::optional<capture::CaptureProgress> progress;
    capture::CaptureProgress last_seen;
    try {
        progress = capture::run_capture(
            *source, sink, run.limits, signals.flag(),
            [&](std::span<const core::Pulse> batch, const capture::CaptureProgress& p) {
                last_seen = p;
                status.update(batch, p);
                if (live) {
                    live->update(batch, p);
                }
            });
    } catch (const core::MeasurementError& e) {
        // The source died mid-run (device unplugged, driver unloaded) or the disk filled: what
        // we have is kept.
        outcome.failure = e.what();
        progress = last_seen;
        progress->stop_reason = capture::StopReason::end_of_stream;
    } catch (const core::InputError&) {
        // No pulse at all: the samplers stop before the file goes.
        status.finish();
        chrony.reset();
        live.reset();
        remove_if_empty(sink);
        throw;
    }
    progress->stop_reason = signals.stop_reason(progress->stop_reason);
    status.finish();
    stop_samplers(chrony, live, outcome);
    outcome.progress = *progress;
    store::EndRecord end = end_record(*progress, signals.signal_number(), outcome.failure);
    end.end_realtime_ns = core::realtime_now_ns();
    finish_files(sink, end, outcome);
    return outcome;
}

}  // namespace ppsbench::session
