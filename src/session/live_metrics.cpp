// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/live_metrics.hpp"

#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>

#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/chrony/sampler.hpp"
#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/units.hpp"
#include "ppsbench/stats/events.hpp"

namespace ppsbench::session {

namespace {

// The most offsets kept for one interval's outlier check: 8 MB, a kHz signal for 17 minutes.
constexpr std::size_t max_interval_offsets = std::size_t{1} << 20;

}  // namespace

LiveMetrics::LiveMetrics(LiveMetricsOptions options, const capture::SourceInfo& source)
    : options_(std::move(options)),
      source_spec_(source.spec),
      simulated_(source.simulated),
      start_realtime_ns_(core::realtime_now_ns()),
      figure_(source) {
    if (options_.host.empty()) {
        char name[256] = {};
        options_.host = gethostname(name, sizeof name - 1) == 0 ? name : "unknown";
    }
    // The kernel is what fleets compare: a label on every series (uname -r).
    utsname uts{};
    kernel_ = uname(&uts) == 0 ? uts.release : "unknown";
    // Room for twice the pulses one interval should bring, allocated once, here.
    const auto expected = static_cast<std::size_t>(options_.interval.count() /
                                                   std::max<std::int64_t>(figure_.period_ns(), 1));
    const std::size_t capacity = std::min(max_interval_offsets, 2 * expected + 16);
    offsets_.reserve(capacity);
    offsets_spare_.reserve(capacity);
    // A metrics path that cannot be written is said before the capture starts.
    write_prometheus();
    // Off the capture thread, on a worker that leaves the stop signals to the capture thread.
    next_interval_ = PeriodicWorker::Clock::now() + options_.interval;
    next_progress_ = PeriodicWorker::Clock::now() + options_.progress_interval;
    worker_.emplace(std::min(next_interval_, next_progress_),
                    [this](auto now) { return tick(now); });
}

LiveMetrics::~LiveMetrics() {
    try {
        stop();
    } catch (...) {
        // A metrics file that cannot be written must not end the run from a destructor.
    }
}

void LiveMetrics::update(std::span<const core::Pulse> batch,
                         const capture::CaptureProgress& progress) {
    const std::lock_guard lock(mutex_);
    for (const auto& pulse : batch) {
        const auto figure = figure_.next(pulse.timestamp_ns);
        ++current_.pulses;
        ++run_.pulses;
        if (!figure) {
            continue;
        }
        const double value = *figure;
        current_.summary.add(value);
        run_.summary.add(value);
        if (offsets_.size() < offsets_.capacity()) {
            offsets_.push_back(value);  // within the reserved capacity: no allocation
        } else {
            ++offsets_dropped_;
        }
    }
    current_.missed += progress.missed_pulses - missed_seen_;
    run_.missed = progress.missed_pulses;
    missed_seen_ = progress.missed_pulses;
    elapsed_ = progress.elapsed;
}

void LiveMetrics::chrony_sample(const nlohmann::json& sample) {
    const std::lock_guard lock(mutex_);
    chrony_status_ = sample.value("status", std::string());
    chrony_rms_ns_.reset();
    const auto tracking = sample.find("tracking");
    if (chrony_status_ == "ok" && tracking != sample.end() && tracking->is_object()) {
        chrony_rms_ns_ = tracking->value("rms_offset_ns", std::int64_t{0});
    }
}

PeriodicWorker::Clock::time_point LiveMetrics::tick(PeriodicWorker::Clock::time_point now) {
    if (now >= next_interval_) {
        close_interval();
        try {
            write_prometheus();
        } catch (const core::Error& e) {
            // The capture goes on (its file is what matters); say it once per failure.
            std::fprintf(stderr, "ppsbench: %s\n", e.what());
        }
        next_interval_ += options_.interval;
    }
    if (now >= next_progress_) {
        print_progress();
        next_progress_ += options_.progress_interval;
    }
    return std::min(next_interval_, next_progress_);
}

void LiveMetrics::close_interval() {
    Window interval;
    {
        const std::lock_guard lock(mutex_);
        interval = current_;
        current_ = Window{};
        offsets_.swap(offsets_spare_);
    }
    // The median and MAD need the interval's values: computed here, off the capture thread.
    if (offsets_spare_.size() >= 3) {
        // report's rule (stats::find_outliers), applied to this interval's values.
        const auto summary = stats::summarize(offsets_spare_);
        interval.outliers = stats::find_outliers(offsets_spare_, options_.outlier_k, summary.median,
                                                 summary.robust_stddev)
                                .indices.size();
    }
    offsets_spare_.clear();  // keeps its capacity
    const std::lock_guard lock(mutex_);
    last_ = interval;
    run_.outliers += interval.outliers;
}

void LiveMetrics::print_progress() const {
    if (options_.progress_stream == nullptr) {
        return;
    }
    std::string line;
    {
        const std::lock_guard lock(mutex_);
        const auto figures = [](const Window& w) {
            const auto s = w.summary.summary();
            if (s.count < 2) {
                return fmt::format("{} pulses", w.pulses);
            }
            return fmt::format("{} pulses, σ {}, p-p {}, RMS {}, missed {}, outliers {}", w.pulses,
                               render::format_ns(s.stddev), render::format_ns(s.peak_to_peak),
                               render::format_ns(s.rms), w.missed, w.outliers);
        };
        line = fmt::format("ppsbench: {}{} {}: run {}; last {}: {}", simulated_ ? "SIMULATED " : "",
                           source_spec_, core::format_duration(elapsed_), figures(run_),
                           core::format_duration(options_.interval), figures(last_));
        if (!chrony_status_.empty()) {
            line += chrony_rms_ns_
                        ? fmt::format("; chrony RMS offset {}",
                                      render::format_ns(static_cast<double>(*chrony_rms_ns_)))
                        : fmt::format("; chrony {}", chrony_status_);
        }
    }
    fmt::print(options_.progress_stream, "{}\n", line);
    std::fflush(options_.progress_stream);
}

void LiveMetrics::stop() {
    if (!worker_) {
        return;
    }
    worker_.reset();  // joins
    // The final figures: the partial interval counts as the last one.
    close_interval();
    write_prometheus();
}

}  // namespace ppsbench::session
