// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <vector>

#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/analysis/shared_bins.hpp"
#include "ppsbench/render/table.hpp"

namespace ppsbench::render {

// The headline columns: pulses, missed, mean, σ, peak-to-peak, RMS, |offset| p99, and chrony's
// RMS offset when any run sampled chronyd.
std::vector<analysis::Metric> default_metrics(const std::vector<analysis::RunAnalysis>& runs);

// One row per run, one column per metric, with the footnotes every report carries: what the
// figures are, which rows are simulated, which runs are on a monotonic clock, warnings.
Table runs_table(const std::vector<analysis::RunAnalysis>& runs,
                 const std::vector<analysis::Metric>& metrics);

// `report --verbose`: the headline table, then distribution, detrended/period, stability and
// events tables.
std::vector<Table> detail_tables(const std::vector<analysis::RunAnalysis>& runs);

// chronyd's view per run (RMS offset at the end and its mean, system time offset, frequency,
// skew, reference, stratum, leap, the PPS refclock's std dev); empty when no run sampled it.
std::optional<Table> chrony_table(const std::vector<analysis::RunAnalysis>& runs);

// What each run measured: kernel release, PREEMPT_RT, where the PPS timestamp is taken (from
// the fingerprint `run` records for device sources); empty when no run has one.
std::optional<Table> configuration_table(const std::vector<analysis::RunAnalysis>& runs);

// A compact text histogram of each run's headline series on `bins` (`--histogram`; bins from
// analysis::shared_bins() of the same runs).
std::string ascii_histograms(const std::vector<analysis::RunAnalysis>& runs,
                             const analysis::SharedBins& bins, std::size_t width = 50);

}  // namespace ppsbench::render
