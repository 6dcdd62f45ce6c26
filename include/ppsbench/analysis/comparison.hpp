// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>
#include <vector>

#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/stats/interval.hpp"

namespace ppsbench::analysis {

// How much larger a run's σ is than the baseline's, and how sure we are. Two intervals: the
// F-interval is exact for independent normal samples; the block bootstrap needs neither
// assumption but needs the pulses. "Not noise" needs every available interval to exclude 1,
// so a comparison errs towards "could be noise" (and a gate towards not flaking).
struct SigmaRatio {
    double ratio = 0;
    stats::Interval f_interval;
    stats::Interval bootstrap;  // NaN when a run is a saved summary without pulses
    double confidence = 0.95;

    // The widest of the available intervals.
    stats::Interval conservative() const;
    // +1 significantly larger, −1 significantly smaller, 0 not distinguishable from noise.
    int direction() const;
};

SigmaRatio sigma_ratio(const RunAnalysis& run, const RunAnalysis& baseline, double confidence,
                       std::uint64_t seed = 1);

struct ComparedRun {
    const RunAnalysis* run = nullptr;
    SigmaRatio sigma;
    std::vector<double> ratios;  // per metric: value / baseline value (NaN if not a time metric)
};

struct Comparison {
    const RunAnalysis* baseline = nullptr;
    std::vector<Metric> metrics;
    std::vector<ComparedRun> runs;
    double confidence = 0.95;
};

// A baseline no ratio can be taken to: σ 0 (every pulse at one offset: a ratio of infinity or
// 0/0) or no σ at all (fewer than two pulses, a summary without it). Throws core::InputError
// naming the baseline and why, for compare and gate alike (a σ-0 baseline was "within noise").
void require_ratio_baseline(const RunAnalysis& baseline);

// Runs need keep_series for the bootstrap (AnalysisSettings::keep_series). Refuses a baseline
// require_ratio_baseline() refuses.
Comparison compare(const RunAnalysis& baseline, const std::vector<RunAnalysis>& runs,
                   std::vector<Metric> metrics, double confidence);

}  // namespace ppsbench::analysis
