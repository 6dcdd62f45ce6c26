// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What a run holds evidence for, as the gate (gate.cpp) asks before it judges a limit: a gate
// never passes on a figure the data cannot support (issue 39). Each function throws
// core::InputError (exit 2) naming the file, the figure and the fix, or returns what the
// verdict stands on.

#include <string>

#include "ppsbench/analysis/gate.hpp"

namespace ppsbench::analysis::detail {

// For a limit on one of chrony's figures (rms_offset, rms_offset_mean, pps_stddev): what they
// stand on, "chrony synchronised at the end and in 58 of 60 samples". Refused when chrony was
// not synchronised at the run's last sample (its RMS offset "at the end" would be that of an
// earlier sample: chronyd died or lost its reference) or in no more than half of the samples.
// "" for any other figure, or a run without chrony (the registry's when_missing refuses that).
std::string chrony_basis(const RunAnalysis& run, const MetricLimit& limit);

// Refuses a limit on a count the run holds no evidence for: missed pulses of a sampled log
// (its gaps are polls, not losses), unseen events and clock steps of made-up sequence numbers
// (an import, a poll: path), and the median or RMS of centred residuals (a free-running or
// monotonic clock), as the mean is.
void require_evidence(const RunAnalysis& run, const MetricLimit& limit);

// bias_mean, bias_median, …: the figures of the path's lateness against a reference.
bool is_bias_figure(const Metric& metric);

// The bias figures (bias_*, --max-bias-growth) of `run` need at least `min_pairs` reference
// pairs (the gate's --min-pulses): below it their intervals judge nothing. `option` names the
// limit in the refusal.
void require_bias_pairs(const RunAnalysis& run, std::uint64_t min_pairs, const std::string& option);

// A ratio or a growth between two runs (--max-ratio, --max-bias-growth) only between runs of
// one cadence: σ of one filtered sample per poll is not σ of every edge (docs/import.md).
void require_same_cadence(const RunAnalysis& baseline, const RunAnalysis& current,
                          const std::string& option);

}  // namespace ppsbench::analysis::detail
