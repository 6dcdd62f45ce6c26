// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/live_metrics.hpp"

#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/chrony/sampler.hpp"
#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/option_value.hpp"
#include "ppsbench/render/units.hpp"
#include "ppsbench/stats/events.hpp"

namespace ppsbench::session {

namespace {

// The most offsets kept for one interval's outlier check: 8 MB, a kHz signal for 17 minutes.
constexpr std::size_t max_interval_offsets = std::size_t{1} << 20;

}  // namespace

LiveMetrics::PathFigures::PathFigures(const LivePath& path, core::Duration interval)
    : name(path.name),
      label(path.label),
      source_spec(path.source->spec),
      simulated(path.source->simulated),
      figure(*path.source) {
    // Room for twice the pulses one interval should bring, allocated once, here.
    const auto expected =
        static_cast<std::size_t>(interval.count() / std::max<std::int64_t>(figure.period_ns(), 1));
    const std::size_t capacity = std::min(max_interval_offsets, 2 * expected + 16);
    offsets.reserve(capacity);
    offsets_spare.reserve(capacity);
}

LiveMetrics::LiveMetrics(LiveMetricsOptions options, const capture::SourceInfo& source)
    : LiveMetrics(options,
                  std::vector<LivePath>{{.name = {}, .label = options.label, .source = &source}}) {}

LiveMetrics::LiveMetrics(LiveMetricsOptions options, const std::vector<LivePath>& paths)
    : options_(std::move(options)), start_realtime_ns_(core::realtime_now_ns()) {
    if (options_.host.empty()) {
        char name[256] = {};
        options_.host = gethostname(name, sizeof name - 1) == 0 ? name : "unknown";
    }
    // The kernel is what fleets compare: a label on every series (uname -r).
    utsname uts{};
    kernel_ = uname(&uts) == 0 ? uts.release : "unknown";
    for (const auto& path : paths) {
        paths_.push_back(std::make_unique<PathFigures>(path, options_.interval));
    }
    start_bias(paths);
    // A metrics path that cannot be written is said before the capture starts.
    write_prometheus();
    // Off the capture thread, on a worker that leaves the stop signals to the capture thread.
    next_interval_ = PeriodicWorker::Clock::now() + options_.interval;
    next_progress_ = PeriodicWorker::Clock::now() + options_.progress_interval;
    worker_.emplace(std::min(next_interval_, next_progress_),
                    [this](auto now) { return tick(now); });
}

// Exactly one path a reference, the other not: the bias is the other's. Both must be on
// CLOCK_REALTIME. A reference that sees every edge (a PHC) is paired edge by edge; a sampled
// one (poll:, one kind of edge on the periods it polls) is interpolated between, as report does.
void LiveMetrics::start_bias(const std::vector<LivePath>& paths) {
    if (paths.size() != 2) {
        return;
    }
    const auto& a = *paths[0].source;
    const auto& b = *paths[1].source;
    if (a.hardware_reference == b.hardware_reference) {
        return;
    }
    measured_path_ = a.hardware_reference ? 1 : 0;
    const auto& measured = *paths[measured_path_].source;
    const auto& reference = *paths[1 - measured_path_].source;
    if (measured.clock != core::ClockId::realtime || reference.clock != core::ClockId::realtime) {
        return;
    }
    if (reference.cadence == core::Cadence::every_edge) {
        bias_.emplace(measured.period.count());
    } else if (reference.cadence == core::Cadence::sampled &&
               reference.edges != core::EdgeSelection::both) {
        bias_.emplace(measured.period.count(), reference.edges == core::EdgeSelection::clear_only
                                                   ? core::Edge::clear_edge
                                                   : core::Edge::assert_edge);
    }
}

LiveMetrics::~LiveMetrics() {
    try {
        stop();
    } catch (...) {
        // A metrics file that cannot be written must not end the run from a destructor.
    }
}

void LiveMetrics::update(std::size_t path, std::span<const core::Pulse> batch,
                         const capture::CaptureProgress& progress) {
    PathFigures& p = *paths_[path];
    const std::lock_guard lock(p.mutex);
    for (const auto& pulse : batch) {
        const auto figure = p.figure.next(pulse.timestamp_ns);
        ++p.current.pulses;
        ++p.run.pulses;
        if (!figure) {
            continue;
        }
        const double value = *figure;
        p.current.summary.add(value);
        p.run.summary.add(value);
        if (p.offsets.size() < p.offsets.capacity()) {
            p.offsets.push_back(value);  // within the reserved capacity: no allocation
        } else {
            ++p.offsets_dropped;
        }
    }
    p.current.missed += progress.missed_pulses - p.missed_seen;
    p.run.missed = progress.missed_pulses;
    p.missed_seen = progress.missed_pulses;
    p.elapsed = progress.elapsed;
    if (bias_) {
        // After this path's lock: the pairing has its own, shared by both capture threads.
        bias_->add(path == measured_path_ ? LiveBias::Side::path : LiveBias::Side::reference,
                   batch);
    }
}

void LiveMetrics::chrony_sample(const nlohmann::json& sample) {
    const std::lock_guard lock(chrony_mutex_);
    chrony_status_ = sample.value("status", std::string());
    chrony_rms_ns_.reset();
    const auto tracking = sample.find("tracking");
    if (chrony_status_ == "ok" && tracking != sample.end() && tracking->is_object()) {
        chrony_rms_ns_ = tracking->value("rms_offset_ns", std::int64_t{0});
    }
    // Selected only when the refid's own row is the `*` one; the sampler's fallback to the
    // selected source (pps_pick "selected") means the refclock was not among the sources.
    chrony_pps_selected_.reset();
    const bool answered = chrony_status_ == "ok" || chrony_status_ == "not-synchronised";
    if (answered && !chrony_refclock_.refid.empty()) {
        const auto source = sample.find("pps_source");
        chrony_pps_selected_ = sample.value("pps_pick", std::string()) == "refid" &&
                               source != sample.end() && source->is_object() &&
                               source->value("state", std::string()) == "*";
    }
}

void LiveMetrics::chrony_refclock(LiveChronyRefclock refclock) {
    const std::lock_guard lock(chrony_mutex_);
    chrony_refclock_ = std::move(refclock);
}

PeriodicWorker::Clock::time_point LiveMetrics::tick(PeriodicWorker::Clock::time_point now) {
    if (now >= next_interval_) {
        for (const auto& path : paths_) {
            close_interval(*path);
        }
        if (bias_) {
            bias_->close_interval();
        }
        try {
            write_prometheus();
        } catch (const core::Error& e) {
            // The capture goes on (its file is what matters); say it once per failure, through
            // std::cerr, which shows a control character in the file's name as \xNN.
            std::cerr << fmt::format("ppsbench: {}\n", e.what());  // one write: a worker thread
        }
        next_interval_ += options_.interval;
    }
    if (now >= next_progress_) {
        for (const auto& path : paths_) {
            print_progress(*path);
        }
        next_progress_ += options_.progress_interval;
    }
    return std::min(next_interval_, next_progress_);
}

void LiveMetrics::close_interval(PathFigures& path) const {
    Window interval;
    {
        const std::lock_guard lock(path.mutex);
        interval = path.current;
        path.current = Window{};
        path.offsets.swap(path.offsets_spare);
    }
    // The median and MAD need the interval's values: computed here, off the capture thread.
    // offsets_spare is the worker's alone until the next swap, which this thread makes.
    if (path.offsets_spare.size() >= 3) {
        // report's rule (stats::find_outliers), applied to this interval's values.
        const auto summary = stats::summarize(path.offsets_spare);
        interval.outliers = stats::find_outliers(path.offsets_spare, options_.outlier_k,
                                                 summary.median, summary.robust_stddev)
                                .indices.size();
    }
    path.offsets_spare.clear();  // keeps its capacity
    const std::lock_guard lock(path.mutex);
    path.last = interval;
    path.run.outliers += interval.outliers;
}

void LiveMetrics::print_progress(const PathFigures& path) const {
    if (options_.progress_stream == nullptr) {
        return;
    }
    std::string line;
    {
        const std::lock_guard lock(path.mutex);
        const auto figures = [](const Window& w) {
            const auto s = w.summary.summary();
            if (s.count < 2) {
                return fmt::format("{} pulses", w.pulses);
            }
            return fmt::format("{} pulses, σ {}, p-p {}, RMS {}, missed {}, outliers {}", w.pulses,
                               render::format_ns(s.stddev), render::format_ns(s.peak_to_peak),
                               render::format_ns(s.rms), w.missed, w.outliers);
        };
        // A two-path run's lines name their path first, so each path's lines can be grepped.
        const std::string name = path.name.empty() ? "" : fmt::format("path {}: ", path.name);
        line = fmt::format("ppsbench: {}{}{} {}: run {}; last {}: {}", name,
                           path.simulated ? "SIMULATED " : "", path.source_spec,
                           core::format_duration(path.elapsed), figures(path.run),
                           core::format_duration(options_.interval), figures(path.last));
    }
    if (bias_ && &path == paths_[measured_path_].get()) {
        const auto figures = [](const stats::RunningSummary& late) {
            const auto s = late.summary();
            return s.count == 0
                       ? std::string("no pairs")
                       : fmt::format("{} ({} pairs)", render::format_ns(s.mean, true), s.count);
        };
        // With chrony's filter estimate beside the run's mean once there is one: what
        // `calibrate` would give, the figure to compare with the refclock's offset.
        const auto with_filter = [&](const LiveBias::Window& w) {
            const auto f = w.filtered_ns.summary();
            return f.count == 0 ? figures(w.late_ns)
                                : fmt::format("{}, chrony's filter {}", figures(w.late_ns),
                                              render::format_ns(f.mean, true));
        };
        const auto run = bias_->run();
        const auto last = bias_->last();
        // Against a polled reference the bias is of the unpolled periods; the polled ones are
        // the disturbance, said apart.
        line += fmt::format(
            "; bias{} vs {} run {}, last {}", bias_->polled() ? " (unpolled periods)" : "",
            paths_[1 - measured_path_]->source_spec, with_filter(run), figures(last.late_ns));
        if (bias_->polled()) {
            line += fmt::format("; polled periods run {}, last {}", figures(run.polled_late_ns),
                                figures(last.polled_late_ns));
        }
    }
    {
        const std::lock_guard lock(chrony_mutex_);
        if (!chrony_status_.empty()) {
            line += chrony_rms_ns_
                        ? fmt::format("; chrony RMS offset {}",
                                      render::format_ns(static_cast<double>(*chrony_rms_ns_)))
                        : fmt::format("; chrony {}", chrony_status_);
        }
    }
    // The source spec and chrony's status come from the user and chronyc: shown, never obeyed,
    // as std::cerr's messages are (this stream is stderr's FILE, past that filter).
    fmt::print(options_.progress_stream, "{}\n", core::printable_utf8(line));
    std::fflush(options_.progress_stream);
}

void LiveMetrics::stop() {
    if (!worker_) {
        return;
    }
    worker_.reset();  // joins
    // The final figures: the partial interval counts as the last one.
    for (const auto& path : paths_) {
        close_interval(*path);
    }
    if (bias_) {
        bias_->close_interval();
    }
    write_prometheus();
}

}  // namespace ppsbench::session
