// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/capture/pulse_source.hpp"
#include "ppsbench/capture/realtime.hpp"
#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/core/pulse_sink.hpp"
#include "ppsbench/session/capture_files.hpp"
#include "ppsbench/session/live_metrics.hpp"
#include "ppsbench/session/status_line.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::session {

// One path from a source to its files: the source, its CaptureFiles (one file or --rotate), its
// status line, and what its capture thread saw. A single run has one, a two-path run two ("A"
// and "B"); the lifecycle (lifecycle.hpp) drives them the same way.
class CapturePath {
  public:
    // Opens the source (core::InputError with the fix; nothing is created). `name` is "" for
    // a single run, "A" or "B" for the paths of a two-path run.
    CapturePath(std::string name, const std::string& spec, const capture::SourceOptions& options);
    CapturePath(const CapturePath&) = delete;
    CapturePath& operator=(const CapturePath&) = delete;

    const std::string& name() const { return name_; }
    capture::PulseSource& source() { return *source_; }
    const capture::SourceInfo& info() const { return source_->info(); }

    // Creates the path's files. With `per_pulse_columns` (two-path runs) a monotonic-clock
    // source's pulses get CLOCK_REALTIME − CLOCK_MONOTONIC beside them, sampled as each batch
    // was read, and a source with columns of its own (PTP) gets those; a single run writes
    // plain pulses, as it always has.
    void create_files(const std::string& output, const store::RunMeta& meta, bool overwrite,
                      std::optional<core::Duration> rotate, bool per_pulse_columns);
    CaptureFiles& files() { return *files_; }
    bool has_files() const { return files_ != nullptr; }
    // Where the capture loop writes: the files, through the per-pulse columns when there are.
    core::PulseSink& sink();

    // The status line on `stream` (nullptr: none), drawn by the capture thread.
    void start_status_line(std::FILE* stream, const capture::CaptureLimits& limits,
                           const std::atomic<std::int64_t>* chrony_rms_ns, int row);
    void finish_status_line();

    // The capture loop's callback: the status line, the live figures (`live` may be null;
    // `index` is this path's there), and the last progress, kept for a failure mid-run.
    void observe(std::span<const core::Pulse> batch, const capture::CaptureProgress& progress,
                 LiveMetrics* live, std::size_t index);

    // A measurement failure mid-run: what was captured is kept, the path stops here.
    void fail(const std::string& message);
    // The loop's result.
    void done(const capture::CaptureProgress& progress) { progress_ = progress; }
    capture::CaptureProgress& progress() { return progress_; }
    const std::string& failure() const { return failure_; }

    // Closes the files without an end record and removes the current one when it holds no
    // pulse (`always`: whatever it holds). Never throws.
    void remove_files(bool always) noexcept;

  private:
    std::string name_;
    std::unique_ptr<capture::PulseSource> source_;
    std::unique_ptr<CaptureFiles> files_;
    std::unique_ptr<core::PulseSink> columns_;  // monotonic sources, or a source's own columns
    std::optional<StatusLine> status_;
    capture::CaptureProgress progress_;
    capture::CaptureProgress last_seen_;
    std::string failure_;
};

}  // namespace ppsbench::session
