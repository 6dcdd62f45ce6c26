#include "ppsbench/report/metrics.hpp"

#include <fmt/format.h>
#include <charconv>
#include <cmath>
#include <limits>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/suggest.hpp"

namespace ppsbench::report {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

using stats::Summary;

// The series people quote: the phase offset on a realtime clock, the detrended residuals on a
// monotonic one (a GPIO source has no top of the second).
const Summary& headline(const RunAnalysis& run) {
    return run.stats.headline();
}

Metric summary_metric(std::string key, std::string title, std::string json_key,
                      double Summary::*field, Quantity quantity = Quantity::time_ns) {
    return {std::move(key), std::move(title), std::move(json_key), quantity,
            [field](const RunAnalysis& run) { return headline(run).*field; }};
}

Metric percentile_metric(std::string key, std::string title, double stats::AbsPercentiles::*field) {
    std::string json_key = "offset_abs_" + key + "_ns";
    return {std::move(key), std::move(title), std::move(json_key), Quantity::time_ns,
            [field](const RunAnalysis& run) { return headline(run).abs_percentiles.*field; }};
}

std::vector<Metric> fixed_metrics() {
    std::vector<Metric> metrics = {
        {"pulses", "pulses", "pulses", Quantity::count,
         [](const RunAnalysis& r) { return static_cast<double>(r.stats.pulses); }},
        {"missed", "missed", "missed_pulses", Quantity::count,
         [](const RunAnalysis& r) { return static_cast<double>(r.stats.missed_pulses); }},
        {"outliers", "outliers", "outliers", Quantity::count,
         [](const RunAnalysis& r) { return static_cast<double>(r.stats.outliers.pulses.size()); }},
        {"clock_steps", "clock steps", "clock_steps", Quantity::count,
         [](const RunAnalysis& r) { return static_cast<double>(r.stats.clock_steps.size()); }},
        summary_metric("mean", "mean", "offset_mean_ns", &Summary::mean, Quantity::signed_time_ns),
        summary_metric("sigma", "raw PPS jitter (σ)", "offset_stddev_ns", &Summary::stddev),
        summary_metric("p2p", "peak-to-peak", "offset_peak_to_peak_ns", &Summary::peak_to_peak),
        summary_metric("rms", "RMS", "offset_rms_ns", &Summary::rms),
        summary_metric("median", "median", "offset_median_ns", &Summary::median,
                       Quantity::signed_time_ns),
        summary_metric("robust_sigma", "robust σ (MAD)", "offset_robust_stddev_ns",
                       &Summary::robust_stddev),
        summary_metric("min", "min", "offset_min_ns", &Summary::min, Quantity::signed_time_ns),
        summary_metric("max", "max", "offset_max_ns", &Summary::max, Quantity::signed_time_ns),
        percentile_metric("p50", "|offset| p50", &stats::AbsPercentiles::p50),
        percentile_metric("p90", "|offset| p90", &stats::AbsPercentiles::p90),
        percentile_metric("p99", "|offset| p99", &stats::AbsPercentiles::p99),
        percentile_metric("p99.9", "|offset| p99.9", &stats::AbsPercentiles::p99_9),
        percentile_metric("p99.99", "|offset| p99.99", &stats::AbsPercentiles::p99_99),
        percentile_metric("max_abs", "|offset| max", &stats::AbsPercentiles::max),
        {"sigma_no_outliers", "σ without outliers", "offset_stddev_without_outliers_ns",
         Quantity::time_ns,
         [](const RunAnalysis& r) { return r.stats.headline_without_outliers().stddev; }},
        {"detrended_sigma", "detrended σ", "detrended_stddev_ns", Quantity::time_ns,
         [](const RunAnalysis& r) { return r.stats.detrended_ns.stddev; }},
        {"detrended_p2p", "detrended p-p", "detrended_peak_to_peak_ns", Quantity::time_ns,
         [](const RunAnalysis& r) { return r.stats.detrended_ns.peak_to_peak; }},
        {"period_sigma", "period jitter σ", "period_jitter_stddev_ns", Quantity::time_ns,
         [](const RunAnalysis& r) { return r.stats.period_jitter_ns.stddev; }},
        {"period_p2p", "period jitter p-p", "period_jitter_peak_to_peak_ns", Quantity::time_ns,
         [](const RunAnalysis& r) { return r.stats.period_jitter_ns.peak_to_peak; }},
        {"rms_offset", "RMS offset (chrony)", "chrony_rms_offset_ns", Quantity::time_ns,
         [](const RunAnalysis& r) {
             const auto end = r.chrony ? r.chrony->rms_offset_end_ns() : std::nullopt;
             return end ? static_cast<double>(*end) : nan;
         }},
        {"rms_offset_mean", "mean RMS offset (chrony)", "chrony_rms_offset_mean_ns",
         Quantity::time_ns,
         [](const RunAnalysis& r) {
             return r.chrony && r.chrony->rms_offset_mean_ns ? *r.chrony->rms_offset_mean_ns : nan;
         }},
        {"pps_stddev", "PPS std dev (chrony)", "chrony_pps_std_dev_ns", Quantity::time_ns,
         [](const RunAnalysis& r) {
             return r.chrony && r.chrony->pps_stats_end
                        ? static_cast<double>(r.chrony->pps_stats_end->std_dev_ns)
                        : nan;
         }},
    };
    return metrics;
}

// "tdev@10s": a stability figure at the octave tau nearest to the one asked for.
std::optional<Metric> stability_metric(std::string_view key) {
    const auto at = key.find('@');
    if (at == std::string_view::npos) {
        return std::nullopt;
    }
    const std::string_view name = key.substr(0, at);
    const double tau_s =
        static_cast<double>(core::parse_duration(key.substr(at + 1), "--metrics").count()) / 1e9;
    const bool is_time = name == "tdev" || name == "mtie";
    using Pick = std::vector<double> stats::Stability::*;
    Pick pick = nullptr;
    if (name == "adev") {
        pick = &stats::Stability::adev;
    } else if (name == "mdev") {
        pick = &stats::Stability::mdev;
    } else if (name == "tdev") {
        pick = &stats::Stability::tdev_s;
    } else if (name == "mtie") {
        pick = &stats::Stability::mtie_s;
    } else {
        return std::nullopt;
    }
    return Metric{std::string(key), fmt::format("{} τ={}", name, key.substr(at + 1)),
                  fmt::format("{}_at_{}s", name, tau_s),
                  is_time ? Quantity::time_ns : Quantity::plain,
                  [pick, tau_s, is_time](const RunAnalysis& r) {
                      if (!r.stats.stability) {
                          return nan;
                      }
                      const auto& taus = r.stats.stability->tau_s;
                      const auto& values = (*r.stats.stability).*pick;
                      for (std::size_t i = 0; i < taus.size() && i < values.size(); ++i) {
                          // Octave taus: accept the one within a factor √2 of the request.
                          if (std::fabs(std::log2(taus[i] / tau_s)) <= 0.5) {
                              return is_time ? values[i] * 1e9 : values[i];
                          }
                      }
                      return nan;
                  }};
}

}  // namespace

std::string metric_names() {
    std::string names;
    for (const auto& m : fixed_metrics()) {
        names += (names.empty() ? "" : ", ") + m.key;
    }
    return names + ", adev@TAU, mdev@TAU, tdev@TAU, mtie@TAU (e.g. tdev@16s)";
}

Metric find_metric(std::string_view key) {
    for (auto& metric : fixed_metrics()) {
        if (metric.key == key) {
            return metric;
        }
    }
    if (auto metric = stability_metric(key)) {
        return *metric;
    }
    // "tdve@16s" means "tdev@16s": match the name before '@' and keep the τ as typed.
    const auto at = key.find('@');
    std::vector<std::string> names;
    if (at == std::string_view::npos) {
        for (const auto& metric : fixed_metrics()) {
            names.push_back(metric.key);
        }
    } else {
        for (const char* family : {"adev", "mdev", "tdev", "mtie"}) {
            names.push_back(std::string(family) + std::string(key.substr(at)));
        }
    }
    throw core::UsageError(fmt::format("--metrics: unknown metric '{}'{}; known: {}", key,
                                       core::did_you_mean(key, names), metric_names()));
}

std::vector<Metric> parse_metrics(std::string_view list) {
    std::vector<Metric> metrics;
    while (!list.empty()) {
        const auto comma = list.find(',');
        const auto key = list.substr(0, comma);
        if (!key.empty()) {
            metrics.push_back(find_metric(key));
        }
        list = comma == std::string_view::npos ? "" : list.substr(comma + 1);
    }
    if (metrics.empty()) {
        throw core::UsageError(
            fmt::format("--metrics: name at least one metric; known: {}", metric_names()));
    }
    return metrics;
}

}  // namespace ppsbench::report
