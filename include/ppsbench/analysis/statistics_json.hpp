#pragma once

#include <nlohmann/json.hpp>

#include "ppsbench/stats/analyze.hpp"

namespace ppsbench::analysis {

// The statistics part of one run in `ppsbench report --format json` (schema ppsbench.report/1,
// docs/report-json.md): the run counts of the metric registry (pulses, missed_pulses,
// outliers), clock_steps, the series offset_ns, detrended_ns and period_jitter_ns (each with
// the registry's summary figures, abs_percentiles and stddev_ci95) and stability. NaN becomes
// null; offset_ns is null on a monotonic clock and stability null when not computed.
nlohmann::json statistics_json(const stats::RunStatistics& run);

// What a saved document gives back: the counts and series figures the registry restores (no
// pulses, events or stability). The clock is realtime when offset_ns is an object.
stats::RunStatistics statistics_from_json(const nlohmann::json& run);

}  // namespace ppsbench::analysis
