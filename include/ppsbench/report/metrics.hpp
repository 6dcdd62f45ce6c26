#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/report/run_analysis.hpp"
#include "ppsbench/report/table.hpp"

namespace ppsbench::report {

// One figure a table column or a gate can name: `--metrics sigma,p2p,p99,rms_offset,tdev@10s`.
// The list is the single place that says what each name means (docs/metrics.md).
struct Metric {
    std::string key;    // as typed in --metrics: "sigma", "tdev@10s"
    std::string title;  // column header: "raw PPS jitter (σ)"
    std::string json_key;
    Quantity quantity = Quantity::time_ns;
    std::function<double(const RunAnalysis&)> value;  // NaN when the run cannot tell
};

// Parses a comma-separated list. Throws core::UsageError naming the unknown key and listing the
// known ones.
std::vector<Metric> parse_metrics(std::string_view list);
Metric find_metric(std::string_view key);

// The names --help and the error message list.
std::string metric_names();

}  // namespace ppsbench::report
