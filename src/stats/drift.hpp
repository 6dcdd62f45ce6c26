// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: how fast the phase drifts, for analyze()'s free-running check.

#include <cstddef>
#include <cstdint>
#include <span>

#include "train_detail.hpp"

namespace ppsbench::stats::detail {

// Fewer pulses than this leave no scatter about a line to judge its slope against: two points
// always lie on one. Such a run's drift is not judged, and its report says so.
inline constexpr std::size_t fewest_to_judge = 3;

// Student's t at a two-sided 1e-3 (its 0.9995 quantile) for 1 … 29 degrees of freedom.
double t_two_sided_1e3(std::size_t degrees_of_freedom);

// A run of 3 … 31 pulses: the least-squares slope of its phase against the pulse numbers, per
// period, and the smallest |slope| that a two-sided t test at 1e-3 would call a drift given the
// residual scatter (`judged` false outside 3 … 31 pulses). Both ratios: 1e-6 is 1 ppm.
struct DriftJudgement {
    bool judged = false;
    double slope = 0;
    double smallest_detectable = 0;
};
DriftJudgement short_run_drift(std::span<const double> phase_ns, const PulseIndex& index,
                               std::int64_t period_ns);
DriftJudgement short_run_drift(std::span<const std::int32_t> phase_ns, const PulseIndex& index,
                               std::int64_t period_ns);

// Any run of 3 pulses or more, by the rule for its length: short_run_drift() under 32 pulses,
// from 32 the quarters' medians (`slope` their change per period, `smallest_detectable` five
// standard errors of it). phase_drift() is its slope where that passes the threshold.
DriftJudgement judge_drift(std::span<const double> phase_ns, const PulseIndex& index,
                           std::int64_t period_ns);
DriftJudgement judge_drift(std::span<const std::int32_t> phase_ns, const PulseIndex& index,
                           std::int64_t period_ns);

// The drift of the phase per period (a ratio: 1e-6 is 1 ppm): from 32 pulses, from the medians
// of its first and last quarters, below that short_run_drift()'s slope; 0 when the jitter could
// explain it, or under 3 pulses.
double phase_drift(std::span<const double> phase_ns, const PulseIndex& index,
                   std::int64_t period_ns);
double phase_drift(std::span<const std::int32_t> phase_ns, const PulseIndex& index,
                   std::int64_t period_ns);

// True when |phase_drift()| is certainly at most `limit`, found without its three medians: every
// value of both quarters lies near one value (the usual run, whose offsets stay within a few
// jitters of each other). False says nothing: phase_drift() decides.
bool drift_at_most(std::span<const double> phase_ns, const PulseIndex& index,
                   std::int64_t period_ns, double limit);
bool drift_at_most(std::span<const std::int32_t> phase_ns, const PulseIndex& index,
                   std::int64_t period_ns, double limit);

}  // namespace ppsbench::stats::detail
