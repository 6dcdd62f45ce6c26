// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/dual_run.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <memory>
#include <thread>

#include "ppsbench/capture/signals.hpp"
#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/utc_time.hpp"
#include "ppsbench/latency/clocks.hpp"
#include "ppsbench/latency/paired.hpp"
#include "ppsbench/store/capture_writer.hpp"

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

// A monotonic-clock path's pulses with the REALTIME − MONOTONIC offset sampled right after the
// batch was read (microseconds after the events), one sample per batch. No allocation.
class TimeBaseSink final : public core::PulseSink {
  public:
    explicit TimeBaseSink(store::CaptureWriter& writer) : writer_(writer) {}
    void write(std::span<const core::Pulse> pulses) override {
        const auto offset = latency::sample_clock_offset();
        // The capture loop hands at most max_pulses_per_write; a larger batch from another
        // caller goes in slices rather than past the end of extras_.
        while (!pulses.empty()) {
            const std::size_t n = std::min(pulses.size(), core::max_pulses_per_write);
            for (std::size_t i = 0; i < n; ++i) {
                extras_[columns * i] = offset.realtime_minus_monotonic_ns;
                extras_[columns * i + 1] = offset.bracket_ns;
            }
            writer_.write_rows(pulses.first(n), std::span(extras_).first(columns * n));
            pulses = pulses.subspan(n);
        }
    }

  private:
    static constexpr std::size_t columns = 2;  // offset_column, bracket_column
    store::CaptureWriter& writer_;
    std::array<std::int64_t, columns * core::max_pulses_per_write> extras_{};
};

// A path whose source records its own per-pulse columns (the PTP source's realtime − PHC
// offset and uncertainty): the values of the batch just read go beside its pulses.
class SourceColumnsSink final : public core::PulseSink {
  public:
    SourceColumnsSink(store::CaptureWriter& writer, const capture::PulseSource& source)
        : writer_(writer), source_(source) {}
    void write(std::span<const core::Pulse> pulses) override {
        // The loop may keep only the first pulses of a batch (--count): the first rows go.
        const std::size_t columns = source_.extra_columns().size();
        writer_.write_rows(pulses, source_.last_extras().first(columns * pulses.size()));
    }

  private:
    store::CaptureWriter& writer_;
    const capture::PulseSource& source_;
};

struct Path {
    std::unique_ptr<capture::PulseSource> source;
    std::unique_ptr<store::CaptureWriter> writer;
    std::unique_ptr<core::PulseSink> time_base;  // monotonic sources, or a source's own columns
    capture::CaptureProgress progress;
    capture::CaptureProgress last_seen;
    std::exception_ptr error;
    std::string failure;
    bool stopped_by_peer = false;
};

void remove_files(std::array<Path, 2>& paths, const std::array<std::string, 2>& outputs) {
    for (std::size_t i = 0; i < paths.size(); ++i) {
        if (paths[i].writer) {
            try {
                paths[i].writer->close();
            } catch (const core::Error&) {
                // Being removed anyway.
            }
            ::unlink(outputs[i].c_str());
        }
    }
}

// The capture file of one path, linked to the other path's, with the sink that puts each
// batch's per-pulse columns beside it: the time base for a monotonic source, the source's own
// columns (PTP), else none.
void create_capture_file(Path& path, const store::RunMeta& meta, const std::string& output,
                         bool overwrite) {
    if (path.source->info().clock == core::ClockId::monotonic) {
        path.writer = std::make_unique<store::CaptureWriter>(
            output, meta, overwrite,
            std::vector<std::string>{std::string(latency::offset_column),
                                     std::string(latency::bracket_column)});
        path.time_base = std::make_unique<TimeBaseSink>(*path.writer);
    } else if (const auto own = path.source->extra_columns(); !own.empty()) {
        path.writer = std::make_unique<store::CaptureWriter>(
            output, meta, overwrite, std::vector<std::string>(own.begin(), own.end()));
        path.time_base = std::make_unique<SourceColumnsSink>(*path.writer, *path.source);
    } else {
        path.writer = std::make_unique<store::CaptureWriter>(output, meta, overwrite);
    }
}

// Both files or neither: a file that cannot be created removes the other.
void create_capture_files(std::array<Path, 2>& paths, const RunOptions& run,
                          const std::array<std::string, 2>& specs,
                          const std::array<std::string, 2>& outputs) {
    try {
        for (std::size_t i = 0; i < 2; ++i) {
            store::RunMeta meta = make_run_metadata(run, paths[i].source->info());
            meta.dual = store::DualLink{
                .path = i == 0 ? "A" : "B",
                .peer_source = specs[1 - i],
                .peer_file = outputs[1 - i],
                .peer_is_reference = paths[1 - i].source->info().hardware_reference};
            create_capture_file(paths[i], meta, outputs[i], run.overwrite);
        }
    } catch (...) {
        remove_files(paths, outputs);
        throw;
    }
}

// One path's thread: the capture loop on its source until the limits, a signal, or the other
// path's failure. A measurement failure keeps what was captured and stops the other path; any
// other error is kept for the caller to rethrow.
void capture_path(Path& path, const capture::CaptureLimits& limits, capture::StopFlag stop,
                  std::atomic<bool>& failed) {
    StoppableSource source(*path.source, failed);
    core::PulseSink& sink = path.time_base ? *path.time_base : *path.writer;
    try {
        path.progress =
            capture::run_capture(source, sink, limits, stop,
                                 [&](std::span<const core::Pulse>,
                                     const capture::CaptureProgress& p) { path.last_seen = p; });
        path.stopped_by_peer = failed.load();
    } catch (const core::MeasurementError& e) {
        path.failure = e.what();
        path.progress = path.last_seen;
        path.progress.stop_reason = capture::StopReason::end_of_stream;
        failed = true;
    } catch (...) {
        path.error = std::current_exception();
        failed = true;
    }
}

// Ends one path's file with its counts and why it stopped. A dual run's end time has always
// been to the second. A file that cannot be finished is reported, not thrown, so the other path
// is still finished.
RunOutcome finish_path(Path& path, const std::string& output, int signal) {
    RunOutcome out;
    out.output_path = output;
    out.progress = path.progress;
    out.simulated = path.source->info().simulated;
    out.failure = path.failure;
    store::EndRecord end = end_record(path.progress, signal, path.failure);
    end.pulses = path.writer->pulses_written();
    end.end_realtime_ns = core::realtime_now_ns();
    end.end_time_precision = core::UtcPrecision::seconds;
    if (path.stopped_by_peer) {
        end.stopped_by = "the other path failed";
    }
    try {
        path.writer->write_end(end);
        path.writer->close();
    } catch (const core::MeasurementError& e) {
        if (out.failure.empty()) {
            out.failure = e.what();
        }
    }
    return out;
}

}  // namespace

std::array<std::string, 2> dual_output_paths(const std::string& output_path) {
    std::string base = output_path;
    if (base.empty()) {
        base = fmt::format("ppsbench-{}.csv", core::format_utc_compact(core::realtime_now_ns()));
    }
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
    if (outputs[0] == outputs[1]) {
        throw core::UsageError(
            fmt::format("-o: both paths would write {}; give two different files", outputs[0]));
    }
    std::array<Path, 2> paths;
    // Both sources before any file: a path that cannot be opened leaves nothing behind.
    for (std::size_t i = 0; i < 2; ++i) {
        paths[i].source = capture::open_source(specs[i], options.source);
    }
    RunOptions run = options;
    run.limits =
        effective_limits(options.limits, {&paths[0].source->info(), &paths[1].source->info()});
    // Threads inherit the scheduling policy and affinity of the thread that creates them.
    const capture::RealtimeGuard realtime(options.realtime);
    create_capture_files(paths, run, specs, outputs);

    const capture::StopOnSignals signals;
    std::atomic<bool> failed{false};
    {
        std::jthread a(capture_path, std::ref(paths[0]), std::cref(run.limits), signals.flag(),
                       std::ref(failed));
        std::jthread b(capture_path, std::ref(paths[1]), std::cref(run.limits), signals.flag(),
                       std::ref(failed));
    }
    for (auto& path : paths) {
        if (path.error) {
            // No first pulse on one path (or a setup failure): not the measurement asked for.
            remove_files(paths, outputs);
            std::rethrow_exception(path.error);
        }
    }

    DualRunOutcome outcome;
    for (std::size_t i = 0; i < 2; ++i) {
        paths[i].progress.stop_reason = signals.stop_reason(paths[i].progress.stop_reason);
        outcome.paths[i] = finish_path(paths[i], outputs[i], signals.signal_number());
    }
    return outcome;
}

}  // namespace ppsbench::session
