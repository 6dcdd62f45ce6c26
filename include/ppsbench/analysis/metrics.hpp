// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/analysis/quantity.hpp"
#include "ppsbench/analysis/run_analysis.hpp"

namespace ppsbench::analysis {

// One figure a table column, a gate, the report document or Prometheus can name:
// `--metrics sigma,p2p,p99,rms_offset,tdev@10s`. The registry (metrics.cpp) is the single place
// that says what each name means (docs/metrics.md) and where each output puts it.
struct Metric {
    std::string key;       // as typed in --metrics: "sigma", "tdev@10s"
    std::string title;     // column header: "raw PPS jitter (σ)"
    std::string json_key;  // column key for machines (CSV header, table JSON): "offset_stddev_ns"
    Quantity quantity = Quantity::time_ns;
    std::function<double(const RunAnalysis&)> value;  // NaN when the run cannot tell
    // The Prometheus family it feeds (empty: not exported), its help line, and the percentile
    // label when several metrics share one family (the |offset| percentiles: "99" for p99).
    // Not "quantile": that label belongs to a summary, which needs a _sum and a _count of the
    // observations, and `promtool check metrics` refuses it on a gauge.
    std::string prometheus;
    std::string prometheus_help;
    std::string prometheus_percentile;
    // Why a run may not have it and what to do, after the file name, for a gate that needs it
    // ("has no synchronised chrony sample, …"; empty: the generic "not a number" reason).
    std::string when_missing;
};

// Parses a comma-separated list. Throws core::UsageError naming the unknown key and listing the
// known ones.
std::vector<Metric> parse_metrics(std::string_view list);
// One metric by key; errors name `option` ("--metrics", "--max").
Metric find_metric(std::string_view key, std::string_view option = "--metrics");

// Refuses (core::UsageError naming `option`) a stability metric whose τ is not among a run's
// computed taus (octaves of the period), listing those that are: adev@3s on 1 Hz data would
// otherwise be a column of "n/a".
void check_taus_computed(const std::vector<Metric>& metrics, const std::vector<RunAnalysis>& runs,
                         std::string_view option);

// Every named metric in the registry's order (the adev@TAU family is parsed, not listed).
const std::vector<Metric>& all_metrics();

// The names --help and the error message list.
std::string metric_names();

// A figure of a series summary (offsets, detrended residuals, period jitter): its key in the
// report document's series objects (percentiles sit under "abs_percentiles"), how to read it
// and how to restore it from a saved document. One row per figure in metrics.cpp also gives the
// headline metric of the same figure.
struct SummaryFigure {
    std::string_view document_key;  // "stddev", or "p99.9" under "abs_percentiles"
    bool abs_percentile = false;
    double (*get)(const stats::Summary&) = nullptr;
    void (*set)(stats::Summary&, double) = nullptr;
};
const std::vector<SummaryFigure>& summary_figures();

// A count of the run in the report document's top level ("pulses", "missed_pulses", …), read
// from the statistics; `restore` (when set) puts it back from a saved document.
struct RunCount {
    std::string_view document_key;
    double (*get)(const stats::RunStatistics&) = nullptr;
    void (*restore)(stats::RunStatistics&, double) = nullptr;
};
const std::vector<RunCount>& run_counts();

// A stability estimator at octave taus: its name in --metrics (adev@TAU), its key in the
// document's "stability" object and whether it is a time (seconds) or dimensionless.
struct StabilityFigure {
    std::string_view name;
    std::string_view document_key;
    std::vector<double> stats::Stability::*values = nullptr;
    bool is_time = false;
};
const std::vector<StabilityFigure>& stability_figures();

}  // namespace ppsbench::analysis
