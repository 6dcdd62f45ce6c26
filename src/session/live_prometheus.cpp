// SPDX-License-Identifier: GPL-2.0-or-later
// The live figures as Prometheus text: the same families, label escaping and writer as
// `report --prometheus` (render::write_prometheus, core::write_file_atomically), renamed
// ppsbench_live_* and labelled with the window they cover.
#include <fmt/format.h>
#include <cmath>
#include <map>
#include <sstream>

#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/chrony/sampler.hpp"
#include "ppsbench/core/atomic_file.hpp"
#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/prometheus.hpp"
#include "ppsbench/session/live_metrics.hpp"

namespace ppsbench::session {

namespace {

using Labels = std::map<std::string, std::string>;

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

double seconds(double ns) {
    return ns * 1e-9;
}

// One family with a sample per path, all of the same value.
void add_per_path(std::vector<render::PrometheusFamily>& families,
                  const std::vector<Labels>& path_labels, std::string name, std::string help,
                  double value) {
    render::PrometheusFamily family{std::move(name), std::move(help), "gauge", {}};
    for (const auto& labels : path_labels) {
        family.samples.push_back({labels, value});
    }
    families.push_back(std::move(family));
}

}  // namespace

// Each path's labels; a two-path run's also say which path (path="A"), so one file holds both
// and every series stays apart.
std::vector<std::map<std::string, std::string>> LiveMetrics::path_labels() const {
    std::vector<Labels> all;
    for (const auto& path : paths_) {
        Labels labels{{"run", path->label},
                      {"source", path->source_spec},
                      {"host", options_.host},
                      {"kernel", kernel_},
                      {"simulated", path->simulated ? "true" : "false"}};
        if (!path->name.empty()) {
            labels["path"] = path->name;
        }
        all.push_back(std::move(labels));
    }
    return all;
}

// chronyd's view is the host's: each path's series carry the same value.
void LiveMetrics::add_chrony_families(const std::vector<Labels>& path_labels,
                                      std::vector<render::PrometheusFamily>& families) const {
    const std::lock_guard lock(chrony_mutex_);
    if (chrony_rms_ns_) {
        render::PrometheusFamily rms{live_name(analysis::find_metric("rms_offset").prometheus),
                                     "chronyd's RMS offset at the last sample (tracking).",
                                     "gauge",
                                     {}};
        for (const auto& labels : path_labels) {
            rms.samples.push_back({labels, seconds(static_cast<double>(*chrony_rms_ns_))});
        }
        families.push_back(std::move(rms));
    }
    if (!chrony_status_.empty()) {
        render::PrometheusFamily status{"ppsbench_live_chrony_status",
                                        "1 for chronyd's status at the last sample.",
                                        "gauge",
                                        {}};
        for (const auto& labels : path_labels) {
            for (const auto each : all_chrony_statuses) {
                auto labelled = labels;
                labelled["status"] = chrony::to_string(each);
                status.samples.push_back(
                    {std::move(labelled), chrony::to_string(each) == chrony_status_ ? 1.0 : 0.0});
            }
        }
        families.push_back(std::move(status));
    }
    // On every path's labels, as the bias it is subtracted from (the rules join on host, run).
    if (chrony_refclock_.offset_s) {
        add_per_path(
            families, path_labels, "ppsbench_live_chrony_refclock_offset_seconds",
            "The offset chrony.conf applies to the run's PPS refclock (0 when its line has "
            "none), read when the run started.",
            *chrony_refclock_.offset_s);
    }
    if (chrony_pps_selected_) {
        add_per_path(families, path_labels, "ppsbench_live_chrony_pps_selected",
                     "1 while chronyd's selected source is the run's PPS refclock, 0 otherwise, at "
                     "the last sample.",
                     *chrony_pps_selected_ ? 1.0 : 0.0);
    }
}

// The measured path's mean lateness against the reference (path − reference, the sign of
// report's bias rows), per window; NaN while a window has no pair.
void LiveMetrics::add_bias_family(const std::vector<Labels>& path_labels,
                                  std::vector<render::PrometheusFamily>& families) const {
    if (!bias_) {
        return;
    }
    render::PrometheusFamily family{
        "ppsbench_live_bias_seconds",
        fmt::format("Mean lateness of this path's timestamps against the run's reference path "
                    "(path - reference, paired as they arrive; against a poll: reference, of the "
                    "unpolled periods, against edges interpolated between polled ones). {}",
                    window_help),
        "gauge",
        {}};
    const auto windows = {std::pair{"interval", bias_->last()}, std::pair{"run", bias_->run()}};
    const auto add_windows = [&](render::PrometheusFamily& to, auto late_of) {
        for (const auto& [window, data] : windows) {
            auto labels = path_labels[measured_path_];
            labels["window"] = window;
            const auto s = late_of(data).summary();
            to.samples.push_back({std::move(labels), s.count >= 1 ? seconds(s.mean) : NAN});
        }
    };
    add_windows(family, [](const LiveBias::Window& w) { return w.late_ns; });
    families.push_back(std::move(family));
    render::PrometheusFamily filtered{
        "ppsbench_live_bias_filtered_seconds",
        fmt::format("This path's lateness against the run's reference as chrony's refclock "
                    "filter averages it ({} consecutive pairs a poll, the samples around the "
                    "median averaged; the polls' mean): the constant `ppsbench calibrate` "
                    "gives, to compare with the refclock's offset. {}",
                    LiveBias::filter_samples, window_help),
        "gauge",
        {}};
    add_windows(filtered, [](const LiveBias::Window& w) { return w.filtered_ns; });
    families.push_back(std::move(filtered));
    if (bias_->polled()) {
        render::PrometheusFamily polled{
            "ppsbench_live_bias_polled_seconds",
            fmt::format("Mean lateness of this path's timestamps on the periods a poll: reference "
                        "polled, against the polled edge: the disturbance polling causes, kept "
                        "apart from ppsbench_live_bias_seconds (the unpolled periods). {}",
                        window_help),
            "gauge",
            {}};
        add_windows(polled, [](const LiveBias::Window& w) { return w.polled_late_ns; });
        families.push_back(std::move(polled));
    }
}

std::string LiveMetrics::prometheus_text() const {
    const std::vector<Labels> path_labels = this->path_labels();
    std::vector<render::PrometheusFamily> families;
    // The registry's families (what σ, p-p, RMS, pulses mean, docs/metrics.md), renamed
    // ppsbench_live_*: the same figures over a window of a run still going.
    const auto windows = [&](std::string_view key, auto value_of) {
        const auto metric = analysis::find_metric(key);
        render::PrometheusFamily family{live_name(metric.prometheus),
                                        fmt::format("{} {}", metric.prometheus_help, window_help),
                                        "gauge",
                                        {}};
        for (std::size_t i = 0; i < paths_.size(); ++i) {
            const PathFigures& path = *paths_[i];
            const std::lock_guard lock(path.mutex);
            for (const auto& [window, data] :
                 {std::pair{"interval", &path.last}, std::pair{"run", &path.run}}) {
                auto windowed = path_labels[i];
                windowed["window"] = window;
                family.samples.push_back({std::move(windowed), value_of(*data)});
            }
        }
        families.push_back(std::move(family));
    };
    const auto per_path = [&](std::string name, std::string help, double value) {
        add_per_path(families, path_labels, std::move(name), std::move(help), value);
    };
    windows("pulses", [](const Window& w) { return static_cast<double>(w.pulses); });
    windows("missed", [](const Window& w) { return static_cast<double>(w.missed); });
    windows("outliers", [](const Window& w) { return static_cast<double>(w.outliers); });
    windows("sigma", [](const Window& w) {
        const auto s = w.summary.summary();
        return s.count >= 2 ? seconds(s.stddev) : NAN;
    });
    windows("p2p", [](const Window& w) {
        const auto s = w.summary.summary();
        return s.count >= 1 ? seconds(s.peak_to_peak) : NAN;
    });
    windows("rms", [](const Window& w) {
        const auto s = w.summary.summary();
        return s.count >= 1 ? seconds(s.rms) : NAN;
    });
    add_bias_family(path_labels, families);
    add_chrony_families(path_labels, families);
    per_path("ppsbench_live_interval_seconds", "Length of the interval window.",
             std::chrono::duration<double>(options_.interval).count());
    per_path("ppsbench_live_run_start_timestamp_seconds", "When the run started (Unix time).",
             seconds(static_cast<double>(start_realtime_ns_)));
    per_path("ppsbench_live_last_update_timestamp_seconds", "When this file was written.",
             seconds(static_cast<double>(core::realtime_now_ns())));
    std::ostringstream text;
    render::write_prometheus(families, text);
    return text.str();
}

void LiveMetrics::write_prometheus() const {
    if (options_.prometheus_path.empty()) {
        return;
    }
    try {
        core::write_file_atomically(options_.prometheus_path, prometheus_text(), "--prometheus");
    } catch (const core::InputError& e) {
        // During a run a metrics file that cannot be written is a failed measurement (exit 1),
        // the capture kept, not bad input.
        throw core::MeasurementError(e.what());
    }
}

}  // namespace ppsbench::session
