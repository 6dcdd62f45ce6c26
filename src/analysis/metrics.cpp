// SPDX-License-Identifier: GPL-2.0-or-later
// The metric registry: every figure ppsbench reports, once. A row here is what a new statistic
// needs besides its computation in stats: tables, --metrics, CSV, the report document (written
// and read back as a gate baseline) and Prometheus all iterate these rows. Looking metrics up
// by name (--metrics, adev@TAU) is metric_names.cpp.
#include "ppsbench/analysis/metrics.hpp"

#include <fmt/format.h>
#include <limits>

#include "metrics_detail.hpp"

namespace ppsbench::analysis {

namespace {

using stats::Summary;

// A count of the run: a headline column and a top-level number of the report document.
struct CountRow {
    const char* key;
    const char* title;
    const char* json_key;  // column key and document key
    double (*get)(const stats::RunStatistics&);
    void (*restore)(stats::RunStatistics&, double);  // null: not read back from a document
    const char* prometheus;
    const char* help;
};

const CountRow count_rows[] = {
    {"pulses", "pulses", "pulses", [](const stats::RunStatistics& s) { return double(s.pulses); },
     [](stats::RunStatistics& s, double v) { s.pulses = static_cast<std::size_t>(v); },
     "ppsbench_pulses", "Pulses analysed in the run."},
    {"missed", "missed", "missed_pulses",
     [](const stats::RunStatistics& s) { return double(s.missed_pulses); },
     [](stats::RunStatistics& s, double v) { s.missed_pulses = static_cast<std::uint64_t>(v); },
     "ppsbench_missed_pulses", "Missed pulses: empty period slots (docs/methodology.md)."},
    {"unseen", "unseen events", "unseen_events",
     [](const stats::RunStatistics& s) { return double(s.unseen_events); },
     [](stats::RunStatistics& s, double v) { s.unseen_events = static_cast<std::uint64_t>(v); },
     "ppsbench_unseen_events",
     "Kernel events never read that left no period slot empty (sequence skips, no time gap)."},
    {"outliers", "outliers", "outliers",
     [](const stats::RunStatistics& s) { return double(s.outliers.pulses.size()); }, nullptr,
     "ppsbench_outliers", "Pulses flagged as outliers (not dropped)."},
    // Lines the capture holds twice and pulses recorded out of time order: analysed once and in
    // order, but counted, so a gate can refuse a file that was doubled or shuffled on its way.
    {"duplicates", "duplicates", "duplicates",
     [](const stats::RunStatistics& s) { return double(s.duplicates); },
     [](stats::RunStatistics& s, double v) { s.duplicates = static_cast<std::size_t>(v); }, "", ""},
    {"out_of_order", "out of order", "out_of_order",
     [](const stats::RunStatistics& s) { return double(s.out_of_order); },
     [](stats::RunStatistics& s, double v) { s.out_of_order = static_cast<std::size_t>(v); }, "",
     ""},
};

// A figure of a series summary: the headline metric (offset, or detrended residuals on a
// monotonic clock) and the figure's key in every series object of the report document.
struct SummaryRow {
    const char* key;
    const char* title;
    const char* document_key;
    bool abs_percentile;  // |offset| percentiles: "offset_abs_<key>_ns", one Prometheus family
    double (*get)(const Summary&);
    void (*set)(Summary&, double);
    Quantity quantity;
    const char* prometheus;  // family name; "" when not exported
    const char* help;
    const char* percentile;  // the percentile label in its shared family ("99" for p99)
};

#define PPSBENCH_FIELD(member) \
    [](const Summary& s) { return s.member; }, [](Summary& s, double v) { s.member = v; }

constexpr const char* percentile_family = "ppsbench_offset_abs_seconds";
constexpr const char* percentile_help = "Percentiles of |offset| (numpy linear interpolation).";

const SummaryRow summary_rows[] = {
    {"mean", "mean", "mean", false, PPSBENCH_FIELD(mean), Quantity::signed_time_ns,
     "ppsbench_offset_mean_seconds",
     "Mean phase offset from the top of the period (detrended residuals on monotonic clocks).", ""},
    {"sigma", "raw PPS jitter (σ)", "stddev", false, PPSBENCH_FIELD(stddev), Quantity::time_ns,
     "ppsbench_offset_stddev_seconds",
     "Raw PPS jitter: sample standard deviation (n-1) of the offset.", ""},
    {"p2p", "peak-to-peak", "peak_to_peak", false, PPSBENCH_FIELD(peak_to_peak), Quantity::time_ns,
     "ppsbench_offset_peak_to_peak_seconds", "Peak-to-peak of the offset.", ""},
    {"rms", "RMS", "rms", false, PPSBENCH_FIELD(rms), Quantity::time_ns,
     "ppsbench_offset_rms_seconds", "RMS of the offset (includes the mean).", ""},
    {"median", "median", "median", false, PPSBENCH_FIELD(median), Quantity::signed_time_ns, "", "",
     ""},
    {"robust_sigma", "robust σ (MAD)", "robust_stddev", false, PPSBENCH_FIELD(robust_stddev),
     Quantity::time_ns, "", "", ""},
    {"min", "min", "min", false, PPSBENCH_FIELD(min), Quantity::signed_time_ns, "", "", ""},
    {"max", "max", "max", false, PPSBENCH_FIELD(max), Quantity::signed_time_ns, "", "", ""},
    {"p50", "|offset| p50", "p50", true, PPSBENCH_FIELD(abs_percentiles.p50), Quantity::time_ns,
     percentile_family, percentile_help, "50"},
    {"p90", "|offset| p90", "p90", true, PPSBENCH_FIELD(abs_percentiles.p90), Quantity::time_ns,
     percentile_family, percentile_help, "90"},
    {"p99", "|offset| p99", "p99", true, PPSBENCH_FIELD(abs_percentiles.p99), Quantity::time_ns,
     percentile_family, percentile_help, "99"},
    {"p99.9", "|offset| p99.9", "p99.9", true, PPSBENCH_FIELD(abs_percentiles.p99_9),
     Quantity::time_ns, percentile_family, percentile_help, "99.9"},
    {"p99.99", "|offset| p99.99", "p99.99", true, PPSBENCH_FIELD(abs_percentiles.p99_99),
     Quantity::time_ns, percentile_family, percentile_help, "99.99"},
    {"max_abs", "|offset| max", "max", true, PPSBENCH_FIELD(abs_percentiles.max), Quantity::time_ns,
     percentile_family, percentile_help, "100"},
};

#undef PPSBENCH_FIELD

Metric count_metric(const CountRow& row) {
    return {row.key, row.title, row.json_key, Quantity::count,
            // A saved summary's count is what the document holds: absent stays absent.
            [get = row.get, key = std::string(row.json_key)](const RunAnalysis& r) {
                return r.saved ? r.saved->figure(key) : get(r.stats);
            },
            row.prometheus, row.help, "", ""};
}

// The series people quote: the phase offset on a realtime clock, the detrended residuals on a
// monotonic one (a GPIO source has no top of the second).
Metric headline_metric(const SummaryRow& row) {
    std::string json_key = row.abs_percentile ? fmt::format("offset_abs_{}_ns", row.key)
                                              : fmt::format("offset_{}_ns", row.document_key);
    return {row.key,
            row.title,
            std::move(json_key),
            row.quantity,
            [get = row.get](const RunAnalysis& r) { return get(r.stats.headline()); },
            row.prometheus,
            row.help,
            row.percentile,
            ""};
}

// The rest: figures of the other series, and chrony's view, which the document keeps whole.
void add_other_metrics(std::vector<Metric>& metrics) {
    metrics.push_back(plain_metric(
        "sigma_no_outliers", "σ without outliers", "offset_stddev_without_outliers_ns",
        Quantity::time_ns,
        [](const RunAnalysis& r) { return r.stats.headline_without_outliers().stddev; }));
    metrics.push_back(
        plain_metric("detrended_sigma", "detrended σ", "detrended_stddev_ns", Quantity::time_ns,
                     [](const RunAnalysis& r) { return r.stats.detrended_ns.stddev; }));
    metrics.push_back(plain_metric(
        "detrended_p2p", "detrended p-p", "detrended_peak_to_peak_ns", Quantity::time_ns,
        [](const RunAnalysis& r) { return r.stats.detrended_ns.peak_to_peak; }));
    metrics.push_back(plain_metric(
        "period_sigma", "period jitter σ", "period_jitter_stddev_ns", Quantity::time_ns,
        [](const RunAnalysis& r) { return r.stats.period_jitter_ns.stddev; }));
    metrics.push_back(plain_metric(
        "period_p2p", "period jitter p-p", "period_jitter_peak_to_peak_ns", Quantity::time_ns,
        [](const RunAnalysis& r) { return r.stats.period_jitter_ns.peak_to_peak; }));
    Metric rms_offset =
        plain_metric("rms_offset", "RMS offset (chrony)", "chrony_rms_offset_ns", Quantity::time_ns,
                     [](const RunAnalysis& r) {
                         if (r.saved) {
                             return r.saved->figure("chrony_rms_offset_ns");
                         }
                         const auto end = r.chrony ? r.chrony->rms_offset_end_ns() : std::nullopt;
                         return end ? static_cast<double>(*end) : nan;
                     });
    rms_offset.prometheus = "ppsbench_chrony_rms_offset_seconds";
    rms_offset.prometheus_help = "chrony's RMS offset at the end of the run (tracking).";
    rms_offset.when_missing =
        "has no synchronised chrony sample, so no RMS offset; capture with 'ppsbench run "
        "--chrony auto' while chronyd uses the PPS refclock";
    metrics.push_back(std::move(rms_offset));
    metrics.push_back(plain_metric(
        "rms_offset_mean", "mean RMS offset (chrony)", "chrony_rms_offset_mean_ns",
        Quantity::time_ns, [](const RunAnalysis& r) {
            if (r.saved) {
                return r.saved->figure("chrony_rms_offset_mean_ns");
            }
            return r.chrony && r.chrony->rms_offset_mean_ns ? *r.chrony->rms_offset_mean_ns : nan;
        }));
    metrics.push_back(plain_metric("pps_stddev", "PPS std dev (chrony)", "chrony_pps_std_dev_ns",
                                   Quantity::time_ns, [](const RunAnalysis& r) {
                                       if (r.saved) {
                                           return r.saved->figure("chrony_pps_std_dev_ns");
                                       }
                                       return r.chrony && r.chrony->pps_stats_end
                                                  ? static_cast<double>(
                                                        r.chrony->pps_stats_end->std_dev_ns)
                                                  : nan;
                                   }));
}

// The path's lateness against a hardware reference (analysis/bias.hpp); NaN without one.
void add_bias_metrics(std::vector<Metric>& metrics) {
    struct BiasRow {
        const char* key;
        const char* title;
        const char* json_key;
        double Bias::*member;
        Quantity quantity;
    };
    static constexpr BiasRow rows[] = {
        {"bias_mean", "bias vs reference (mean)", "bias_mean_ns", &Bias::mean_ns,
         Quantity::signed_time_ns},
        {"bias_median", "bias vs reference (median)", "bias_median_ns", &Bias::median_ns,
         Quantity::signed_time_ns},
        {"bias_sigma", "bias σ", "bias_stddev_ns", &Bias::stddev_ns, Quantity::time_ns},
        {"bias_p99", "bias p99", "bias_p99_ns", &Bias::p99_ns, Quantity::signed_time_ns},
        {"bias_max", "bias max", "bias_max_ns", &Bias::max_ns, Quantity::signed_time_ns},
    };
    for (const auto& row : rows) {
        Metric metric = plain_metric(row.key, row.title, row.json_key, row.quantity,
                                     [member = row.member](const RunAnalysis& r) {
                                         return r.bias ? (*r.bias).*member : nan;
                                     });
        metric.when_missing =
            "has no bias against a hardware reference; capture it in a two-source run with one "
            "('ppsbench run --source ptp:/dev/ptp0 --source pps:/dev/pps0') and use the PPS "
            "path's file";
        metrics.push_back(std::move(metric));
    }
}

std::vector<Metric> make_registry() {
    std::vector<Metric> metrics;
    for (const auto& row : count_rows) {
        metrics.push_back(count_metric(row));
    }
    metrics.push_back(plain_metric(
        "clock_steps", "clock steps", "clock_steps", Quantity::count, [](const RunAnalysis& r) {
            return r.saved ? r.saved->figure("clock_steps")
                           : static_cast<double>(r.stats.clock_steps.size());
        }));
    for (const auto& row : summary_rows) {
        metrics.push_back(headline_metric(row));
    }
    add_other_metrics(metrics);
    add_bias_metrics(metrics);
    return metrics;
}

}  // namespace

Metric plain_metric(std::string key, std::string title, std::string json_key, Quantity quantity,
                    std::function<double(const RunAnalysis&)> value) {
    return {std::move(key),
            std::move(title),
            std::move(json_key),
            quantity,
            std::move(value),
            "",
            "",
            "",
            ""};
}

const std::vector<Metric>& all_metrics() {
    static const std::vector<Metric> registry = make_registry();
    return registry;
}

const std::vector<SummaryFigure>& summary_figures() {
    static const std::vector<SummaryFigure> figures = [] {
        std::vector<SummaryFigure> list;
        for (const auto& row : summary_rows) {
            list.push_back({row.document_key, row.abs_percentile, row.get, row.set});
        }
        return list;
    }();
    return figures;
}

const std::vector<RunCount>& run_counts() {
    static const std::vector<RunCount> counts = [] {
        std::vector<RunCount> list;
        for (const auto& row : count_rows) {
            list.push_back({row.json_key, row.get, row.restore});
        }
        return list;
    }();
    return counts;
}

const std::vector<StabilityFigure>& stability_figures() {
    static const std::vector<StabilityFigure> figures = {
        {"adev", "adev", &stats::Stability::adev, false},
        {"mdev", "mdev", &stats::Stability::mdev, false},
        {"tdev", "tdev_s", &stats::Stability::tdev_s, true},
        {"mtie", "mtie_s", &stats::Stability::mtie_s, true},
    };
    return figures;
}

}  // namespace ppsbench::analysis
