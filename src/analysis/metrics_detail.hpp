// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What the registry (metrics.cpp) shares with the lookup by name (metric_names.cpp).

#include <functional>
#include <string>

#include "ppsbench/analysis/metrics.hpp"

namespace ppsbench::analysis {

// A metric of its own: shown in tables and --metrics, not exported to Prometheus.
Metric plain_metric(std::string key, std::string title, std::string json_key, Quantity quantity,
                    std::function<double(const RunAnalysis&)> value);

}  // namespace ppsbench::analysis
