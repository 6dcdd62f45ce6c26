#include "ppsbench/report/prometheus_export.hpp"

#include <fmt/format.h>
#include <cmath>
#include <set>

#include "ppsbench/core/error.hpp"

namespace ppsbench::report {

namespace {

// The file tells apart runs that share a label, source and host (two captures of one kernel).
std::map<std::string, std::string> labels_of(const RunAnalysis& run) {
    return {{"run", run.label},
            {"file", run.file},
            {"source", run.meta.value("source", std::string())},
            {"host", run.meta.value("host", std::string())},
            {"simulated", run.simulated ? "true" : "false"}};
}

PrometheusFamily family(std::string name, std::string help, const std::vector<RunAnalysis>& runs,
                        double (*value)(const RunAnalysis&)) {
    PrometheusFamily f{std::move(name), std::move(help), "gauge", {}};
    for (const auto& run : runs) {
        f.samples.push_back({labels_of(run), value(run)});
    }
    return f;
}

double ns_to_s(double ns) {
    return ns / 1e9;
}

}  // namespace

std::vector<PrometheusFamily> prometheus_families(const std::vector<RunAnalysis>& runs) {
    // node_exporter's textfile collector rejects a file with two identical series.
    std::set<std::map<std::string, std::string>> seen;
    for (const auto& run : runs) {
        if (!seen.insert(labels_of(run)).second) {
            throw core::InputError(fmt::format(
                "--prometheus: {} is named twice; its series would be identical (node_exporter "
                "rejects such a file): give each run once",
                run.file));
        }
    }
    std::vector<PrometheusFamily> families;
    families.push_back(family("ppsbench_pulses", "Pulses analysed in the run.", runs,
                              [](const RunAnalysis& r) { return double(r.stats.pulses); }));
    families.push_back(family("ppsbench_missed_pulses", "Missed pulses (sequence and time gaps).",
                              runs,
                              [](const RunAnalysis& r) { return double(r.stats.missed_pulses); }));
    families.push_back(
        family("ppsbench_outliers", "Pulses flagged as outliers (not dropped).", runs,
               [](const RunAnalysis& r) { return double(r.stats.outliers.pulses.size()); }));
    families.push_back(family(
        "ppsbench_offset_mean_seconds",
        "Mean phase offset from the top of the period (detrended residuals on monotonic clocks).",
        runs, [](const RunAnalysis& r) { return ns_to_s(r.stats.headline().mean); }));
    families.push_back(
        family("ppsbench_offset_stddev_seconds",
               "Raw PPS jitter: sample standard deviation (n-1) of the offset.", runs,
               [](const RunAnalysis& r) { return ns_to_s(r.stats.headline().stddev); }));
    families.push_back(
        family("ppsbench_offset_peak_to_peak_seconds", "Peak-to-peak of the offset.", runs,
               [](const RunAnalysis& r) { return ns_to_s(r.stats.headline().peak_to_peak); }));
    families.push_back(
        family("ppsbench_offset_rms_seconds", "RMS of the offset (includes the mean).", runs,
               [](const RunAnalysis& r) { return ns_to_s(r.stats.headline().rms); }));

    PrometheusFamily percentiles{"ppsbench_offset_abs_seconds",
                                 "Percentiles of |offset| (numpy linear interpolation).",
                                 "gauge",
                                 {}};
    for (const auto& run : runs) {
        const auto& p = run.stats.headline().abs_percentiles;
        const std::pair<const char*, double> quantiles[] = {
            {"0.5", p.p50},     {"0.9", p.p90},       {"0.99", p.p99},
            {"0.999", p.p99_9}, {"0.9999", p.p99_99}, {"1", p.max}};
        for (const auto& [q, v] : quantiles) {
            auto labels = labels_of(run);
            labels["quantile"] = q;
            percentiles.samples.push_back({labels, ns_to_s(v)});
        }
    }
    families.push_back(std::move(percentiles));

    families.push_back(family(
        "ppsbench_chrony_rms_offset_seconds",
        "chrony's RMS offset at the end of the run (tracking).", runs, [](const RunAnalysis& r) {
            const auto end = r.chrony ? r.chrony->rms_offset_end_ns() : std::nullopt;
            return end ? double(*end) / 1e9 : std::nan("");
        }));
    families.push_back(family(
        "ppsbench_run_start_timestamp_seconds", "When the capture started (Unix time).", runs,
        [](const RunAnalysis& r) {
            return r.meta.contains("start_realtime_ns") && r.meta["start_realtime_ns"].is_number()
                       ? r.meta["start_realtime_ns"].get<double>() / 1e9
                       : std::nan("");
        }));
    return families;
}

}  // namespace ppsbench::report
