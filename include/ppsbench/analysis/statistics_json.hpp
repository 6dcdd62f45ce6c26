// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "ppsbench/stats/analyze.hpp"

namespace ppsbench::analysis {

// The statistics part of one run in `ppsbench report --format json` (schema ppsbench.report/2,
// docs/report-json.md): the run counts of the metric registry (pulses, missed_pulses,
// outliers, duplicates, out_of_order), clock_steps, the series offset_ns, detrended_ns and
// period_jitter_ns (each with the registry's summary figures, abs_percentiles, stddev_ci95 and
// stddev_without_outliers) and stability. NaN becomes null; offset_ns is null on a monotonic
// clock and stability null when not computed.
nlohmann::json statistics_json(const stats::RunStatistics& run);

// What a saved document gives back: every figure it holds (series figures, σ's interval and σ
// without outliers, stability), and its counts and chrony's figures by column key. A figure it
// does not hold is absent: NaN, NaN in `figures`, no stability. The clock is realtime when
// offset_ns is an object. Throws core::InputError naming the key when a value has the wrong type.
struct SavedStatistics {
    stats::RunStatistics stats;
    std::map<std::string, double, std::less<>> figures;
    nlohmann::json clock_steps;  // as the document has it; null when absent
};
SavedStatistics statistics_from_json(const nlohmann::json& run);

}  // namespace ppsbench::analysis
