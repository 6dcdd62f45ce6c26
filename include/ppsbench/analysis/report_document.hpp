#pragma once

#include <istream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ppsbench/analysis/report.hpp"

namespace ppsbench::analysis {

// The key every ppsbench JSON document names its schema with ("ppsbench.report/1").
inline constexpr const char* schema_key = "schema";
inline constexpr const char* report_schema = "ppsbench.report/1";

// The JSON document of `report --format json` (schema ppsbench.report/1, docs/report-json.md):
// {"schema", "runs": [{label, file, simulated, <statistics_json>, chrony, system, warnings}]},
// plus "latency": [...] when any file came from `ppsbench latency` (absent otherwise).
nlohmann::json report_document(const Report& report);

// Reads a saved document back as runs (a `gate` baseline that does not need the pulses).
// Throws core::InputError naming `path` when it is not such a document.
std::vector<RunAnalysis> read_report_document(std::istream& in, const std::string& path);

}  // namespace ppsbench::analysis
