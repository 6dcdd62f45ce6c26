#pragma once

#include <vector>

#include "ppsbench/report/metrics.hpp"
#include "ppsbench/report/run_analysis.hpp"
#include "ppsbench/report/table.hpp"

namespace ppsbench::report {

// The headline columns: pulses, missed, mean, σ, peak-to-peak, RMS, |offset| p99, and chrony's
// RMS offset when any run sampled chronyd.
std::vector<Metric> default_metrics(const std::vector<RunAnalysis>& runs);

// One row per run, one column per metric, with the footnotes every report carries: what the
// figures are, which rows are simulated, which runs are on a monotonic clock, warnings.
Table runs_table(const std::vector<RunAnalysis>& runs, const std::vector<Metric>& metrics);

// `report --verbose`: the headline table, then distribution, detrended/period, stability and
// events tables.
std::vector<Table> detail_tables(const std::vector<RunAnalysis>& runs);

// A compact text histogram of each run's headline series (`--histogram`).
std::string ascii_histograms(const std::vector<RunAnalysis>& runs, std::size_t width = 50);

}  // namespace ppsbench::report
