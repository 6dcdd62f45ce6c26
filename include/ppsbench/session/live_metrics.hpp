// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/capture/pulse_source.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/render/prometheus.hpp"
#include "ppsbench/session/live_bias.hpp"
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

// What chrony.conf says of the run's PPS refclock (chrony::find_pps_refclock), read once when the
// run starts: chronyd reads its configuration only when it starts too.
struct LiveChronyRefclock {
    // `--chrony-refid`, else the refid chrony.conf gives the device's refclock; "" when neither
    // is known, and then ppsbench_live_chrony_pps_selected is not written (nothing to tell).
    std::string refid;
    // The refclock's `offset` in seconds, 0 when its line has none; nullopt when no refclock was
    // found (or its offset is not a number): ppsbench_live_chrony_refclock_offset_seconds is
    // then not written.
    std::optional<double> offset_s;
};

// One path whose figures are followed: a single run has one, unnamed; a two-path run two, named
// "A" and "B" (store::DualLink::path), which label their series (path="A") and progress lines.
struct LivePath {
    std::string name;   // empty for a single run: no path label
    std::string label;  // the run="..." label (analysis::run_label of the path's file)
    const capture::SourceInfo* source = nullptr;
};

// Rolling figures of a run while it runs: for the last interval and for the run so far, the σ,
// peak-to-peak and RMS of the offset (phase offset on a realtime clock, period jitter on a
// monotonic one, as the status line), pulses, missed pulses and outliers, and chrony's RMS
// offset and status, whether it follows the run's PPS refclock, and the offset it applies to it.
// Each capture thread only adds to its path's running sums and preallocated buffer (no allocation
// per pulse, one lock per path so two paths never wait on each other); a thread of its own computes
// the outliers, writes one Prometheus file for every path atomically and prints the progress lines,
// one per path.
//
// A two-path run whose one path is a reference (ptp:, poll:, sim:reference) also pairs the other
// path's edges with the reference's as they arrive (LiveBias; against poll:, the unpolled
// periods against interpolated edges, report's split) and exports their mean lateness,
// ppsbench_live_bias_seconds, chrony's filter estimate of it (…_filtered_seconds, what the
// alert rule compares with the refclock's offset) and against poll: the polled periods' own
// (…_polled_seconds), on the measured path's labels, and in its progress lines. Not for a path
// on CLOCK_MONOTONIC (GPIO: it is put on CLOCK_REALTIME after the run).
// The pairing has one lock, shared by both capture threads and held for a batch's pairing.
//
// Outliers here are judged per interval (|x − median| > k · robust σ of that interval's
// offsets) and summed over the run; `ppsbench report` judges the whole run at once, so its
// count can differ slightly.
class LiveMetrics {
  public:
    // One path: options.label labels it, and its series carry no path label.
    LiveMetrics(LiveMetricsOptions options, const capture::SourceInfo& source);
    // Several paths, in order; `options.label` is unused (each path has its own).
    LiveMetrics(LiveMetricsOptions options, const std::vector<LivePath>& paths);
    ~LiveMetrics();
    LiveMetrics(const LiveMetrics&) = delete;
    LiveMetrics& operator=(const LiveMetrics&) = delete;

    // Capture thread of path `path`, after each batch: cheap and allocation-free.
    void update(std::size_t path, std::span<const core::Pulse> batch,
                const capture::CaptureProgress& progress);
    void update(std::span<const core::Pulse> batch, const capture::CaptureProgress& progress) {
        update(0, batch, progress);
    }
    // chrony thread: each `# chrony` sample as written to the capture file (chronyd's view is
    // the host's, the same for every path).
    void chrony_sample(const nlohmann::json& sample);
    // Before the first chrony sample: which refclock is the run's, and the offset it applies.
    void chrony_refclock(LiveChronyRefclock refclock);
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
    // One path's figures; its mutex guards everything but the constants.
    struct PathFigures {
        PathFigures(const LivePath& path, core::Duration interval);
        std::string name;
        std::string label;
        std::string source_spec;
        bool simulated;
        mutable std::mutex mutex;
        LiveFigure figure;
        std::uint64_t missed_seen = 0;
        core::Duration elapsed{0};
        Window current;                     // filling now (capture thread)
        Window last;                        // the last complete interval
        Window run;                         // the whole run, outliers summed from the intervals
        std::vector<double> offsets;        // this interval's offsets, capacity fixed up front
        std::vector<double> offsets_spare;  // swapped in at each interval's end
        std::uint64_t offsets_dropped = 0;  // beyond the capacity (not judged for outliers)
    };
    // One round of the worker: the interval's figures and/or a progress line, whichever is due.
    PeriodicWorker::Clock::time_point tick(PeriodicWorker::Clock::time_point now);
    void close_interval(PathFigures& path) const;
    void write_prometheus() const;
    std::vector<std::map<std::string, std::string>> path_labels() const;
    void add_chrony_families(const std::vector<std::map<std::string, std::string>>& path_labels,
                             std::vector<render::PrometheusFamily>& families) const;
    void print_progress(const PathFigures& path) const;
    void add_bias_family(const std::vector<std::map<std::string, std::string>>& path_labels,
                         std::vector<render::PrometheusFamily>& families) const;
    void start_bias(const std::vector<LivePath>& paths);

    LiveMetricsOptions options_;
    std::string kernel_;
    std::int64_t start_realtime_ns_;

    PeriodicWorker::Clock::time_point next_interval_;  // the worker's own
    PeriodicWorker::Clock::time_point next_progress_;

    std::vector<std::unique_ptr<PathFigures>> paths_;
    std::optional<LiveBias> bias_;     // a two-path run with a reference
    std::size_t measured_path_ = 0;    // the path whose bias it is
    mutable std::mutex chrony_mutex_;  // guards the four below
    std::string chrony_status_;
    std::optional<std::int64_t> chrony_rms_ns_;
    LiveChronyRefclock chrony_refclock_;
    std::optional<bool> chrony_pps_selected_;  // nullopt: unknown refid, or chronyd not answering
    std::optional<PeriodicWorker> worker_;     // last: it runs tick() until stopped
};

}  // namespace ppsbench::session
