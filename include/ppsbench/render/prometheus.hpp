// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ppsbench::render {

// One sample of a metric family in the Prometheus text exposition format (version 0.0.4), for
// node_exporter's textfile collector.
struct PrometheusSample {
    std::map<std::string, std::string> labels;
    double value = 0;
};

struct PrometheusFamily {
    std::string name;  // ppsbench_offset_stddev_seconds
    std::string help;
    std::string type = "gauge";
    std::vector<PrometheusSample> samples;
};

// Writes the families; NaN samples are skipped (an absent figure is no sample, not a NaN
// that alerting rules would trip over). Label values are escaped as the format requires.
void write_prometheus(const std::vector<PrometheusFamily>& families, std::ostream& out);

}  // namespace ppsbench::render
