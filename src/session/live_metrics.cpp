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

std::string escape_label(std::string_view value) {
    std::string out;
    for (const char c : value) {
        if (c == '\\' || c == '"') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else {
            out += c;
        }
    }
    return out;
}

constexpr chrony::ChronyStatus all_chrony_statuses[] = {
    chrony::ChronyStatus::ok,
    chrony::ChronyStatus::chronyc_missing,
    chrony::ChronyStatus::chronyd_not_running,
    chrony::ChronyStatus::not_synchronised,
    chrony::ChronyStatus::died,
    chrony::ChronyStatus::not_responding,
    chrony::ChronyStatus::unexpected_output,
};

// "ppsbench_offset_stddev_seconds" -> "ppsbench_live_offset_stddev_seconds".
std::string live_name(std::string_view family) {
    constexpr std::string_view prefix = "ppsbench_";
    return fmt::format("ppsbench_live_{}", family.substr(prefix.size()));
}

constexpr std::string_view window_help =
    "Live: window=\"interval\" the last interval, \"run\" the run so far; outliers judged per "
    "interval.";

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

std::string LiveMetrics::prometheus_text() const {
    const std::lock_guard lock(mutex_);
    const std::string labels = fmt::format(
        R"(run="{}",source="{}",host="{}",kernel="{}",simulated="{}")",
        escape_label(options_.label), escape_label(source_spec_), escape_label(options_.host),
        escape_label(kernel_), simulated_ ? "true" : "false");
    std::string text;
    const auto family = [&](std::string_view name, std::string_view help) {
        text += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", name, help, name);
    };
    const auto windows = [&](std::string_view name, auto value_of) {
        for (const auto& [window, data] :
             {std::pair{"interval", &last_}, std::pair{"run", &run_}}) {
            const double value = value_of(*data);
            if (std::isfinite(value)) {
                text += fmt::format("{}{{{},window=\"{}\"}} {}\n", name, labels, window, value);
            }
        }
    };
    const auto seconds = [](double ns) { return ns * 1e-9; };

    // The registry's families (what σ, p-p, RMS, pulses mean, docs/metrics.md), renamed
    // ppsbench_live_*: the same figures over a window of a run still going.
    const auto registry_family = [&](std::string_view key) {
        const auto metric = analysis::find_metric(key);
        const std::string name = live_name(metric.prometheus);
        family(name, fmt::format("{} {}", metric.prometheus_help, window_help));
        return name;
    };

    windows(registry_family("pulses"),
            [](const Window& w) { return static_cast<double>(w.pulses); });
    windows(registry_family("missed"),
            [](const Window& w) { return static_cast<double>(w.missed); });
    windows(registry_family("outliers"),
            [](const Window& w) { return static_cast<double>(w.outliers); });
    windows(registry_family("sigma"), [&](const Window& w) {
        const auto s = w.summary.summary();
        return s.count >= 2 ? seconds(s.stddev) : NAN;
    });
    windows(registry_family("p2p"), [&](const Window& w) {
        const auto s = w.summary.summary();
        return s.count >= 1 ? seconds(s.peak_to_peak) : NAN;
    });
    windows(registry_family("rms"), [&](const Window& w) {
        const auto s = w.summary.summary();
        return s.count >= 1 ? seconds(s.rms) : NAN;
    });
    if (chrony_rms_ns_) {
        const auto metric = analysis::find_metric("rms_offset");
        const std::string name = live_name(metric.prometheus);
        family(name, "chronyd's RMS offset at the last sample (tracking).");
        text += fmt::format("{}{{{}}} {}\n", name, labels,
                            seconds(static_cast<double>(*chrony_rms_ns_)));
    }
    if (!chrony_status_.empty()) {
        family("ppsbench_live_chrony_status", "1 for chronyd's status at the last sample.");
        for (const auto status : all_chrony_statuses) {
            const auto name = chrony::to_string(status);
            text += fmt::format("ppsbench_live_chrony_status{{{},status=\"{}\"}} {}\n", labels,
                                name, name == chrony_status_ ? 1 : 0);
        }
    }
    family("ppsbench_live_interval_seconds", "Length of the interval window.");
    text += fmt::format("ppsbench_live_interval_seconds{{{}}} {}\n", labels,
                        std::chrono::duration<double>(options_.interval).count());
    family("ppsbench_live_run_start_timestamp_seconds", "When the run started (Unix time).");
    text += fmt::format("ppsbench_live_run_start_timestamp_seconds{{{}}} {}\n", labels,
                        seconds(static_cast<double>(start_realtime_ns_)));
    family("ppsbench_live_last_update_timestamp_seconds", "When this file was written.");
    text += fmt::format("ppsbench_live_last_update_timestamp_seconds{{{}}} {}\n", labels,
                        seconds(static_cast<double>(core::realtime_now_ns())));
    return text;
}

void LiveMetrics::write_prometheus() const {
    if (options_.prometheus_path.empty()) {
        return;
    }
    // Write FILE.tmp, then rename: a scrape sees the old file or the new one, never half.
    const std::string text = prometheus_text();
    const std::string tmp = options_.prometheus_path + ".tmp";
    std::FILE* file = std::fopen(tmp.c_str(), "w");
    if (file == nullptr) {
        throw core::MeasurementError(
            fmt::format("{}: cannot write the metrics file: {}", tmp, core::errno_message(errno)));
    }
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    if (std::fclose(file) != 0 || !written ||
        std::rename(tmp.c_str(), options_.prometheus_path.c_str()) != 0) {
        const int err = errno;
        std::remove(tmp.c_str());
        throw core::MeasurementError(fmt::format("{}: cannot write the metrics file: {}",
                                                 options_.prometheus_path,
                                                 core::errno_message(err)));
    }
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
