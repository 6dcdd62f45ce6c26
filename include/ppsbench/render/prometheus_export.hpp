// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <vector>

#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/render/prometheus.hpp"

namespace ppsbench::render {

// A run's figures as Prometheus metric families, in base units (seconds), labelled with the
// run's label, source and host, so a fleet of time servers can be watched and alerted on
// (docs/prometheus.md).
std::vector<PrometheusFamily> prometheus_families(const std::vector<analysis::RunAnalysis>& runs);

}  // namespace ppsbench::render
