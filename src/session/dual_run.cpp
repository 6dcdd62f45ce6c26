// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/dual_run.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <latch>
#include <memory>
#include <optional>
#include <thread>

#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/session/capture_path.hpp"
#include "ppsbench/session/default_name.hpp"
#include "ppsbench/session/lifecycle.hpp"
#include "ppsbench/session/poll_placement.hpp"
#include "session/run_parts.hpp"

namespace ppsbench::session {

namespace {

using namespace std::chrono_literals;

// Lets one path's thread be stopped when the other fails, without changing the capture loop:
// waits are cut into short slices, between which the shared flags are checked. A slice that
// ends early is reported as `interrupted` (the loop re-checks and waits again), so timeouts are
// still counted only when the whole requested wait passed.
class StoppableSource final : public capture::PulseSource {
  public:
    StoppableSource(capture::PulseSource& inner, const std::atomic<bool>& peer_failed)
        : inner_(inner), peer_failed_(peer_failed) {}

    capture::WaitResult wait(core::Duration timeout) override {
        const std::int64_t deadline = core::now_ns(core::ClockId::monotonic) + timeout.count();
        for (;;) {
            if (peer_failed_.load()) {
                return capture::WaitResult::end_of_stream;
            }
            const std::int64_t remaining = deadline - core::now_ns(core::ClockId::monotonic);
            const auto slice = std::min<core::Duration>(
                core::Duration{std::max<std::int64_t>(remaining, 0)}, 200ms);
            const auto result = inner_.wait(slice);
            if (result != capture::WaitResult::timeout) {
                return result;
            }
            if (core::now_ns(core::ClockId::monotonic) >= deadline) {
                return capture::WaitResult::timeout;
            }
        }
    }
    std::size_t read(std::span<core::Pulse> out) override { return inner_.read(out); }
    const capture::SourceInfo& info() const override { return inner_.info(); }

  private:
    capture::PulseSource& inner_;
    const std::atomic<bool>& peer_failed_;
};

constexpr std::array<const char*, 2> path_names{"A", "B"};

// A path's own settings name the path, so "--cpu 9: no such CPU" says which --cpu it was.
[[noreturn]] void rethrow_for_path(const char* name, const std::string& spec) {
    try {
        throw;
    } catch (const core::UsageError& e) {
        throw core::UsageError(fmt::format("path {} ({}): {}", name, spec, e.what()));
    } catch (const core::InputError& e) {
        throw core::InputError(fmt::format("path {} ({}): {}", name, spec, e.what()));
    }
}

// `ppsbench run --source A --source B`: two CapturePaths, each captured by its own thread.
class DualRun final : public Session {
  public:
    DualRun(const RunOptions& options, const std::array<std::string, 2>& specs,
            const std::array<std::string, 2>& outputs, DualRunOutcome& outcome)
        : options_(options), specs_(specs), outputs_(outputs), outcome_(outcome) {}

    void open() override {
        // Both sources before any file: a path that cannot be opened leaves nothing behind.
        for (std::size_t i = 0; i < 2; ++i) {
            paths_[i].emplace(path_names[i], specs_[i], options_.source);
        }
        check_placement();
        for (std::size_t i = 0; i < 2; ++i) {
            check_poll_reference_pattern(specs_[i], paths_[i]->info().details, path_names[1 - i]);
        }
    }
    // Threads inherit the scheduling policy and affinity of the thread that creates them; a
    // path's own CPU and priority are applied on its thread (main_loop).
    capture::RealtimeOptions settings() const override { return options_.realtime; }

    void enable() override {
        const std::array<const capture::SourceInfo*, 2> info{&paths_[0]->info(),
                                                             &paths_[1]->info()};
        run_ = options_;
        run_.limits = effective_limits(options_.limits, {info[0], info[1]});
        create_files(info);
        start_live(info);
        start_chrony(info);
        const auto* rms = chrony_ ? &chrony_->latest_rms_offset_ns() : nullptr;
        for (std::size_t i = 0; i < 2; ++i) {
            paths_[i]->start_status_line(options_.status_stream, run_.limits, rms,
                                         static_cast<int>(i));
        }
    }

    void main_loop(capture::StopFlag stop) override {
        for (auto& path : paths_) {
            discard_queued_edges(path->source());
        }
        std::latch ready(2);
        {
            std::jthread a(&DualRun::capture_path, this, std::size_t{0}, stop, std::ref(ready));
            std::jthread b(&DualRun::capture_path, this, std::size_t{1}, stop, std::ref(ready));
        }
        for (const auto& error : errors_) {
            if (error) {
                // No first pulse on one path, its settings refused, or a setup failure: not
                // the measurement asked for (abandon removes both files).
                std::rethrow_exception(error);
            }
        }
    }

    void finish(const capture::StopOnSignals& signals) override {
        for (auto& path : paths_) {
            path->finish_status_line();
        }
        stop_samplers(chrony_, live_, outcome_.chrony_notices);
        for (std::size_t i = 0; i < 2; ++i) {
            paths_[i]->progress().stop_reason =
                signals.stop_reason(paths_[i]->progress().stop_reason);
            outcome_.paths[i] = finish_path(i, signals.signal_number());
        }
    }

    void abandon() noexcept override {
        for (auto& path : paths_) {
            if (path) {
                path->finish_status_line();
            }
        }
        chrony_.reset();
        live_.reset();
        for (auto& path : paths_) {
            if (path) {
                path->remove_files(true);
            }
        }
        unclaim_default_names();
    }

  private:
    void check_placement() const;
    void create_files(const std::array<const capture::SourceInfo*, 2>& info);
    void start_live(const std::array<const capture::SourceInfo*, 2>& info);
    void start_chrony(const std::array<const capture::SourceInfo*, 2>& info);
    void capture_path(std::size_t i, capture::StopFlag stop, std::latch& ready);
    RunOutcome finish_path(std::size_t i, int signal);
    void unclaim_default_names() noexcept;

    const RunOptions& options_;
    const std::array<std::string, 2>& specs_;
    std::array<std::string, 2> outputs_;  // with --rotate, each path's pattern
    bool claimed_ = false;                // outputs_ are default names claimed by this run
    DualRunOutcome& outcome_;
    RunOptions run_;  // with the effective limits
    std::array<std::optional<CapturePath>, 2> paths_;
    std::array<store::RunMeta, 2> metas_;
    std::array<std::exception_ptr, 2> errors_;
    std::array<bool, 2> stopped_by_peer_{};
    std::atomic<bool> failed_{false};
    std::optional<LiveMetrics> live_;
    std::optional<ChronyMonitor> chrony_;
};

// A poll: path pinned where the other path's PPS interrupt (or its thread) runs is refused
// before any file exists (poll_placement.hpp). The scheme is the user's spelling of a busy-
// polling source; an unpinned poller cannot be checked (docs/latency.md says to pin it).
void DualRun::check_placement() const {
    for (std::size_t i = 0; i < 2; ++i) {
        const auto& pps_device = paths_[1 - i]->info().pps_device;
        if (!specs_[i].starts_with("poll:") || pps_device.empty()) {
            continue;
        }
        std::optional<int> cpu = options_.realtime.cpu;
        if (i < options_.path_realtime.size() && options_.path_realtime[i].cpu) {
            cpu = options_.path_realtime[i].cpu;
        }
        if (cpu) {
            check_poll_placement(
                {.path = path_names[i], .spec = specs_[i], .cpu = *cpu, .pps_device = pps_device});
        }
    }
}

// Both files or neither: a file that cannot be created removes the other. Each path's metadata
// is a run's (its own CPU and priority, the kernel fingerprint beside host hardware), linked to
// the other path's file.
void DualRun::create_files(const std::array<const capture::SourceInfo*, 2>& info) {
    if (outputs_[0].empty()) {
        outputs_ = claim_default_output_pair("ppsbench-");
        claimed_ = true;
    }
    // Both paths' files (and with --rotate, all their parts) carry one run id: a reader proves
    // with it that the reference beside a path is that path's.
    const std::string run_id = new_rotation_run_id();
    for (std::size_t i = 0; i < 2; ++i) {
        RunOptions path_run = run_;
        if (i < options_.path_realtime.size()) {
            const auto& own = options_.path_realtime[i];
            path_run.realtime.cpu = own.cpu ? own.cpu : path_run.realtime.cpu;
            path_run.realtime.rt_priority =
                own.rt_priority ? own.rt_priority : path_run.realtime.rt_priority;
        }
        store::RunMeta& meta = metas_[i];
        meta = make_run_metadata(path_run, *info[i]);
        if (info[i]->host_hardware) {
            meta.system = system_fingerprint(*info[i]);
        }
        // With --rotate, peer_file is the other path's pattern: its part of the same time is
        // the part of that pattern and run id open when this one began (docs/capture-file.md).
        meta.dual = store::DualLink{.path = path_names[i],
                                    .peer_source = specs_[1 - i],
                                    .peer_file = outputs_[1 - i],
                                    .peer_is_reference = info[1 - i]->hardware_reference,
                                    .run_id = run_id};
        if (options_.rotate) {
            meta.rotation =
                store::Rotation{.run_id = run_id, .index = 0, .interval = {}, .previous_file = {}};
        }
        // A claimed default name is an empty file of this run's: the writer takes it over.
        paths_[i]->create_files(outputs_[i], meta, run_.overwrite || claimed_, options_.rotate,
                                true);
    }
}

void DualRun::start_live(const std::array<const capture::SourceInfo*, 2>& info) {
    if (!options_.live) {
        return;
    }
    std::vector<LivePath> live_paths;
    for (std::size_t i = 0; i < 2; ++i) {
        // Labelled as `report` will label each path's capture.
        live_paths.push_back({.name = path_names[i],
                              .label = analysis::run_label(metas_[i], outputs_[i]),
                              .source = info[i]});
    }
    live_.emplace(*options_.live, live_paths);
}

void DualRun::start_chrony(const std::array<const capture::SourceInfo*, 2>& info) {
    auto sampler = chrony_sampling(options_, {info[0], info[1]}, std::string());
    if (!sampler) {
        return;
    }
    const auto note_paths = chrony_note_paths(options_, info);
    if (sampler->device.empty()) {
        sampler->device = info[note_paths.front()]->pps_device;
    }
    if (live_) {
        live_->chrony_refclock(live_chrony_refclock(*sampler));
    }
    std::vector<CaptureFiles*> files;
    for (const auto i : note_paths) {
        files.push_back(&paths_[i]->files());
    }
    chrony_.emplace(*sampler, [files, this](const nlohmann::json& sample) {
        for (auto* each : files) {
            each->write_note("chrony", sample);
        }
        if (live_) {
            live_->chrony_sample(sample);
        }
    });
}

// One path's thread: its own settings, then (once both paths' are in place) the capture loop
// on its source until the limits, a signal, or the other path's failure. A measurement failure
// keeps what was captured and stops the other path; any other error is kept for main_loop.
void DualRun::capture_path(std::size_t i, capture::StopFlag stop, std::latch& ready) {
    CapturePath& path = *paths_[i];
    std::optional<capture::RealtimeGuard> own;
    try {
        if (i < options_.path_realtime.size()) {
            try {
                own.emplace(options_.path_realtime[i]);
            } catch (const core::Error&) {
                rethrow_for_path(path_names[i], specs_[i]);
            }
        }
    } catch (...) {
        errors_[i] = std::current_exception();
        failed_ = true;
    }
    // Neither path captures before both have their settings, nor when either was refused.
    ready.arrive_and_wait();
    if (failed_.load()) {
        return;
    }
    StoppableSource source(path.source(), failed_);
    LiveMetrics* live = live_ ? &*live_ : nullptr;
    try {
        path.done(capture::run_capture(
            source, path.sink(), run_.limits, stop,
            [&](std::span<const core::Pulse> batch, const capture::CaptureProgress& p) {
                path.observe(batch, p, live, i);
            }));
        stopped_by_peer_[i] = failed_.load();
    } catch (const core::MeasurementError& e) {
        path.fail(e.what());
        failed_ = true;
    } catch (...) {
        errors_[i] = std::current_exception();
        failed_ = true;
    }
}

// Ends one path's files with its counts and why it stopped. A dual run's end time has always
// been to the second. A file that cannot be finished is reported, not thrown, so the other path
// is still finished.
RunOutcome DualRun::finish_path(std::size_t i, int signal) {
    CapturePath& path = *paths_[i];
    RunOutcome out;
    out.progress = path.progress();
    out.simulated = path.info().simulated;
    out.failure = path.failure();
    store::EndRecord end = end_record(path.progress(), signal, path.failure());
    end.pulses = path.files().pulses_written();
    end.end_realtime_ns = core::realtime_now_ns();
    end.end_time_precision = core::UtcPrecision::seconds;
    if (stopped_by_peer_[i]) {
        end.stopped_by = "the other path failed";
    }
    try {
        path.files().finish(end);
    } catch (const core::MeasurementError& e) {
        if (out.failure.empty()) {
            out.failure = e.what();
        }
    }
    out.output_path = path.files().current_path();
    out.files = path.files().paths();
    return out;
}

void DualRun::unclaim_default_names() noexcept {
    if (!claimed_) {
        return;
    }
    for (std::size_t i = 0; i < 2; ++i) {
        if (!paths_[i] || !paths_[i]->has_files()) {
            ::unlink(outputs_[i].c_str());  // claimed, never taken over by a writer
        }
    }
}

}  // namespace

std::array<std::string, 2> dual_output_paths(const std::string& output_path) {
    if (output_path.empty()) {
        return {};
    }
    const std::string& base = output_path;
    const auto slash = base.rfind('/');
    const auto dot = base.rfind('.');
    const bool has_extension =
        dot != std::string::npos && dot > 0 && (slash == std::string::npos || dot > slash + 1);
    const std::string stem = has_extension ? base.substr(0, dot) : base;
    const std::string extension = has_extension ? base.substr(dot) : ".csv";
    return {stem + "-1" + extension, stem + "-2" + extension};
}

DualRunOutcome execute_dual_run(const RunOptions& options, const std::array<std::string, 2>& specs,
                                const std::array<std::string, 2>& outputs) {
    if (!outputs[0].empty() && outputs[0] == outputs[1]) {
        throw core::UsageError(
            fmt::format("-o: both paths would write {}; give two different files", outputs[0]));
    }
    DualRunOutcome outcome;
    DualRun run(options, specs, outputs, outcome);
    run_lifecycle(run);
    return outcome;
}

}  // namespace ppsbench::session
