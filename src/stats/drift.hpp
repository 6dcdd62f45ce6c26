// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: how fast the phase drifts, for analyze()'s free-running check.

#include <cstdint>
#include <span>

#include "train_detail.hpp"

namespace ppsbench::stats::detail {

// The drift of the phase per period (a ratio: 1e-6 is 1 ppm), from the medians of its first and
// last quarters; 0 when the jitter could explain it, or under 32 pulses.
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
