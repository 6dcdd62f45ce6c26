// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <string>

#include "ppsbench/stats/analyze.hpp"

namespace ppsbench::analysis {

// The first figure of `stats` that breaks its own definition, in words that name it and the
// rule ("offset_ns: stddev -5 is negative"); nullopt when every figure present is possible.
// An absent figure (NaN: not computed, or not held by a saved summary) is not judged. The rules,
// per series (offset_ns, detrended_ns, period_jitter_ns): σ, robust σ, RMS, p2p and the |x|
// percentiles are ≥ 0; σ ≤ p2p; p2p = max − min; min ≤ median ≤ max and min ≤ mean ≤ max;
// |mean| ≤ RMS; p50 ≤ p90 ≤ p99 ≤ p99.9 ≤ p99.99 ≤ max of |x|; σ's interval is ordered. And the
// stability figures are ≥ 0 at increasing positive taus. A saved summary that breaks one is
// refused (read_report_document); it is checked to rounding (1e-9 relative).
std::optional<std::string> impossible_figure(const stats::RunStatistics& stats);

}  // namespace ppsbench::analysis
