// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/capture/pulse_source.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/session/live_figure.hpp"
#include "ppsbench/session/worker_thread.hpp"
#include "ppsbench/stats/summary.hpp"

namespace ppsbench::session {

struct LiveMetricsOptions {
    // node_exporter textfile: rewritten atomically (core::write_file_atomically) every
    // `interval`. Empty: none.
    std::string prometheus_path;
    core::Duration interval = std::chrono::minutes{1};
    // One progress line per `progress_interval` on this stream (stderr when it is not a
    // terminal, for the journal), else nullptr.
    std::FILE* progress_stream = nullptr;
    core::Duration progress_interval = std::chrono::minutes{5};
    double outlier_k = 8.0;  // as `report --outlier-k`
    std::string label;       // the run="..." label; execute_run sets analysis::run_label's
    std::string host;
};

// Rolling figures of a run while it runs: for the last interval and for the run so far, the σ,
// peak-to-peak and RMS of the offset (phase offset on a realtime clock, period jitter on a
// monotonic one, as the status line), pulses, missed pulses and outliers, and chrony's RMS
// offset and status. The capture thread only adds to running sums and a preallocated buffer
// (no allocation per pulse); a thread of its own computes the outliers, writes the
// Prometheus file atomically and prints progress lines.
//
// Outliers here are judged per interval (|x − median| > k · robust σ of that interval's
// offsets) and summed over the run; `ppsbench report` judges the whole run at once, so its
// count can differ slightly.
class LiveMetrics {
  public:
    LiveMetrics(LiveMetricsOptions options, const capture::SourceInfo& source);
    ~LiveMetrics();
    LiveMetrics(const LiveMetrics&) = delete;
    LiveMetrics& operator=(const LiveMetrics&) = delete;

    // Capture thread, after each batch: cheap and allocation-free.
    void update(std::span<const core::Pulse> batch, const capture::CaptureProgress& progress);
    // chrony thread: each `# chrony` sample as written to the capture file.
    void chrony_sample(const nlohmann::json& sample);
    // Writes the final figures and joins the thread. Idempotent.
    void stop();

    // The Prometheus text of the current figures, for tests and the writer.
    std::string prometheus_text() const;

  private:
    struct Window {
        stats::RunningSummary summary;
        std::uint64_t pulses = 0;
        std::uint64_t missed = 0;
        std::uint64_t outliers = 0;
    };
    // One round of the worker: the interval's figures and/or a progress line, whichever is due.
    PeriodicWorker::Clock::time_point tick(PeriodicWorker::Clock::time_point now);
    void close_interval();
    void write_prometheus() const;
    void print_progress() const;

    LiveMetricsOptions options_;
    std::string source_spec_;
    std::string kernel_;
    bool simulated_;
    std::int64_t start_realtime_ns_;

    PeriodicWorker::Clock::time_point next_interval_;  // the worker's own
    PeriodicWorker::Clock::time_point next_progress_;

    mutable std::mutex mutex_;  // guards everything below but worker_
    LiveFigure figure_;
    std::uint64_t missed_seen_ = 0;
    core::Duration elapsed_{0};
    Window current_;                     // filling now (capture thread)
    Window last_;                        // the last complete interval
    Window run_;                         // the whole run, outliers summed from the intervals
    std::vector<double> offsets_;        // this interval's offsets, capacity fixed up front
    std::vector<double> offsets_spare_;  // swapped in at each interval's end
    std::uint64_t offsets_dropped_ = 0;  // beyond the capacity (not judged for outliers)
    std::string chrony_status_;
    std::optional<std::int64_t> chrony_rms_ns_;
    std::optional<PeriodicWorker> worker_;  // last: it runs tick() until stopped
};

}  // namespace ppsbench::session
