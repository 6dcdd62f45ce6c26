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
#include "ppsbench/session/capture_path.hpp"
#include "ppsbench/session/chrony_monitor.hpp"
#include "ppsbench/session/default_name.hpp"
#include "ppsbench/session/lifecycle.hpp"
#include "ppsbench/session/status_line.hpp"
#include "session/run_parts.hpp"

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
        end.stop_reason = store::StopReason::failed;
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

namespace {

// `ppsbench run` with one source: one CapturePath, captured on this thread.
class SingleRun final : public Session {
  public:
    SingleRun(const RunOptions& options, RunOutcome& outcome)
        : options_(options), outcome_(outcome) {}

    void open() override { path_.emplace("", options_.source_spec, options_.source); }
    capture::RealtimeOptions settings() const override { return options_.realtime; }

    void enable() override {
        const capture::SourceInfo& info = path_->info();
        run_ = options_;
        run_.limits = effective_limits(options_.limits, {&info});
        outcome_.simulated = info.simulated;
        store::RunMeta meta = make_run_metadata(run_, info);
        if (info.host_hardware) {
            meta.system = system_fingerprint(info);
        }
        create_files(meta);
        CaptureFiles& sink = path_->files();
        if (options_.live) {
            // Labelled as `report` will label the capture.
            LiveMetricsOptions live_options = *options_.live;
            live_options.label = analysis::run_label(meta, outcome_.output_path);
            live_.emplace(std::move(live_options), info);
        }
        if (const auto sampler = chrony_sampling(options_, {&info}, info.pps_device)) {
            if (live_) {
                live_->chrony_refclock(live_chrony_refclock(*sampler));
            }
            chrony_.emplace(*sampler, [&sink, this](const nlohmann::json& sample) {
                sink.write_note("chrony", sample);
                if (live_) {
                    live_->chrony_sample(sample);
                }
            });
        }
        path_->start_status_line(options_.status_stream, run_.limits,
                                 chrony_ ? &chrony_->latest_rms_offset_ns() : nullptr, 0);
    }

    void main_loop(capture::StopFlag stop) override {
        LiveMetrics* live = live_ ? &*live_ : nullptr;
        try {
            path_->done(capture::run_capture(
                path_->source(), path_->sink(), run_.limits, stop,
                [&](std::span<const core::Pulse> batch, const capture::CaptureProgress& p) {
                    path_->observe(batch, p, live, 0);
                }));
        } catch (const core::MeasurementError& e) {
            // The source died mid-run (device unplugged, driver unloaded) or the disk filled:
            // what we have is kept.
            path_->fail(e.what());
        }
    }

    void finish(const capture::StopOnSignals& signals) override {
        capture::CaptureProgress& progress = path_->progress();
        progress.stop_reason = signals.stop_reason(progress.stop_reason);
        path_->finish_status_line();
        stop_samplers(chrony_, live_, outcome_.chrony_notices);
        outcome_.progress = progress;
        outcome_.failure = path_->failure();
        store::EndRecord end = end_record(progress, signals.signal_number(), outcome_.failure);
        // What the files hold, as a two-path run counts: a batch kept at a failed seam is in
        // the file though the capture loop never counted it.
        end.pulses = path_->files().pulses_written();
        end.end_realtime_ns = core::realtime_now_ns();
        finish_files(path_->files(), end, outcome_);
    }

    void abandon() noexcept override {
        // No pulse at all: the samplers stop before the file goes.
        if (path_) {
            path_->finish_status_line();
        }
        chrony_.reset();
        live_.reset();
        if (path_) {
            path_->remove_files(false);
        }
    }

  private:
    // The capture's file: -o, or a default name claimed for this run alone (outcome.output_path).
    void create_files(const store::RunMeta& meta) {
        const bool default_name = options_.output_path.empty();
        outcome_.output_path =
            default_name ? claim_default_output("ppsbench-") : options_.output_path;
        try {
            // A claimed default name is an empty file of this run's: the writer takes it over.
            path_->create_files(outcome_.output_path, meta, options_.overwrite || default_name,
                                options_.rotate, false);
        } catch (...) {
            if (default_name) {
                ::unlink(outcome_.output_path.c_str());
            }
            throw;
        }
    }

    const RunOptions& options_;
    RunOutcome& outcome_;
    RunOptions run_;  // with the effective limits
    std::optional<CapturePath> path_;
    std::optional<LiveMetrics> live_;
    std::optional<ChronyMonitor> chrony_;
};

}  // namespace

RunOutcome execute_run(const RunOptions& options) {
    RunOutcome outcome;
    SingleRun run(options, outcome);
    run_lifecycle(run);
    return outcome;
}

}  // namespace ppsbench::session
