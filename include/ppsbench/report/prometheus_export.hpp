#pragma once

#include <vector>

#include "ppsbench/report/prometheus.hpp"
#include "ppsbench/report/run_analysis.hpp"

namespace ppsbench::report {

// A run's figures as Prometheus metric families, in base units (seconds), labelled with the
// run's label, source and host, so a fleet of time servers can be watched and alerted on
// (docs/prometheus.md).
std::vector<PrometheusFamily> prometheus_families(const std::vector<RunAnalysis>& runs);

}  // namespace ppsbench::report
