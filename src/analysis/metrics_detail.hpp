// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What the registry (metrics.cpp) shares with the lookup by name (metric_names.cpp) and the
// reading back of a saved summary (statistics_from_json.cpp).

#include <functional>
#include <limits>
#include <string>

#include "ppsbench/analysis/metrics.hpp"

namespace ppsbench::analysis {

// A figure a run does not have: "—" in the tables, null in the report document.
inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// A metric of its own: shown in tables and --metrics, not exported to Prometheus.
Metric plain_metric(std::string key, std::string title, std::string json_key, Quantity quantity,
                    std::function<double(const RunAnalysis&)> value);

}  // namespace ppsbench::analysis
