// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/render/prometheus_export.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <set>

#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::render {

namespace {

// The file tells apart runs that share a label, source and host (two captures of one kernel).
std::map<std::string, std::string> labels_of(const analysis::RunAnalysis& run) {
    return {{"run", run.label},
            {"file", run.file},
            {"source", run.meta ? run.meta->source : std::string()},
            {"host", run.meta ? run.meta->host.value_or(std::string()) : std::string()},
            {"simulated", run.simulated ? "true" : "false"}};
}

// Prometheus wants base units: times in seconds.
double exported(const analysis::Metric& metric, double value) {
    const bool is_time = metric.quantity == analysis::Quantity::time_ns ||
                         metric.quantity == analysis::Quantity::signed_time_ns;
    return is_time ? value / 1e9 : value;
}

// Each family once, in the registry's order; its samples run by run, then metric by metric
// (the |offset| percentiles share one family with a percentile label).
void add_metric_families(const std::vector<analysis::RunAnalysis>& runs,
                         std::vector<PrometheusFamily>& families) {
    const auto& registry = analysis::all_metrics();
    for (const auto& metric : registry) {
        if (metric.prometheus.empty() ||
            std::any_of(families.begin(), families.end(),
                        [&](const auto& f) { return f.name == metric.prometheus; })) {
            continue;
        }
        PrometheusFamily family{metric.prometheus, metric.prometheus_help, "gauge", {}};
        for (const auto& run : runs) {
            for (const auto& member : registry) {
                if (member.prometheus != metric.prometheus) {
                    continue;
                }
                auto labels = labels_of(run);
                if (!member.prometheus_percentile.empty()) {
                    labels["percentile"] = member.prometheus_percentile;
                }
                family.samples.push_back({std::move(labels), exported(member, member.value(run))});
            }
        }
        families.push_back(std::move(family));
    }
}

// When the capture started, in Unix seconds; NaN when not recorded (a saved summary, or a
// hand-made meta line without it, which RunMeta reads as 0: no capture starts at the epoch).
double start_seconds(const analysis::RunAnalysis& run) {
    if (!run.meta || run.meta->start_realtime_ns == 0) {
        return std::nan("");
    }
    return static_cast<double>(run.meta->start_realtime_ns) / 1e9;
}

}  // namespace

std::vector<PrometheusFamily> prometheus_families(const std::vector<analysis::RunAnalysis>& runs) {
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
    add_metric_families(runs, families);
    // Not a figure of the run but when it was taken, from the capture's metadata.
    PrometheusFamily start{"ppsbench_run_start_timestamp_seconds",
                           "When the capture started (Unix time).",
                           "gauge",
                           {}};
    for (const auto& run : runs) {
        start.samples.push_back({labels_of(run), start_seconds(run)});
    }
    families.push_back(std::move(start));
    return families;
}

}  // namespace ppsbench::render
