// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: analyze()'s first check. Is the period P the pulses are folded on the one they were
// recorded at? The answer is the most common interval between consecutive pulses in time order
// (per kernel event where the sequence numbers are the kernel's), not the median: with
// independent losses one period is the most likely interval at any loss rate, while the median
// moves to 2 P once half the pulses are lost.

#include <cstdint>
#include <span>

#include "ppsbench/core/packed_pulses.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/stats/analyze.hpp"
#include "unusual_intervals.hpp"

namespace ppsbench::stats::detail {

// A period the bulk of the intervals contradicts by more than any clock's frequency error.
inline constexpr double period_bound = 1000e-6;

struct PeriodFinding {
    double mode_ns = 0;       // the most common interval (per kernel event), 0 without intervals
    std::size_t support = 0;  // intervals within 5 % of it
    // mode / (multiple · P) − 1: the clock's rate error if the period is right.
    double rate_error = 0;
    std::int64_t multiple = 1;  // sampled cadence: the poll in periods (1 otherwise)
    bool consistent = true;     // within period_bound (plus the mode's own uncertainty)
};

// `kernel_sequences`: divide each interval by its sequence advance. `cadence` sampled: the mode
// may be any whole multiple of P (one sample per poll). `file_order`: scan_file_order()'s list
// for a capture that holds only `edge`, or null; with it only the sampled intervals are read.
PeriodFinding find_period(const core::PackedPulses& pulses, core::Edge edge, std::int64_t period_ns,
                          core::Cadence cadence, bool kernel_sequences,
                          const UnusualIntervals* file_order = nullptr);

// find_period() with the options' period, cadence and sequence numbers; throws
// core::InputError naming both values and the fix when the pulses contradict the period.
PeriodFinding check_period(const core::PackedPulses& pulses, core::Edge edge,
                           const AnalysisOptions& options,
                           const UnusualIntervals* file_order = nullptr);

}  // namespace ppsbench::stats::detail
