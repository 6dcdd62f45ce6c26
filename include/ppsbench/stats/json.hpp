#pragma once

#include <nlohmann/json.hpp>

#include "ppsbench/stats/analyze.hpp"
#include "ppsbench/stats/stability.hpp"
#include "ppsbench/stats/summary.hpp"

namespace ppsbench::stats {

// The statistics part of one run in `ppsbench report --format json` (schema ppsbench.report/1,
// issue 3): exactly the keys
//   pulses, missed_pulses, outliers, clock_steps, offset_ns, detrended_ns, period_jitter_ns,
//   stability
// The report layer adds label, file and simulated. NaN (not enough data) becomes null, as JSON
// has no NaN; offset_ns is null on a monotonic clock and stability null when not computed.

// {mean, stddev, peak_to_peak, min, max, rms, median, robust_stddev,
//  abs_percentiles: {p50, p90, p99, p99.9, p99.99, max}, stddev_ci95: [lo, hi]}
nlohmann::json to_json(const Summary& summary);

// {tau_s: [...], adev: [...], mdev: [...], tdev_s: [...], mtie_s: [...]}
nlohmann::json to_json(const Stability& stability);

nlohmann::json to_json(const RunStatistics& run);

}  // namespace ppsbench::stats
