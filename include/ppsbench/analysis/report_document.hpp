// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <istream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ppsbench/analysis/report.hpp"

namespace ppsbench::analysis {

// The key every ppsbench JSON document names its schema with ("ppsbench.report/2").
inline constexpr const char* schema_key = "schema";
inline constexpr const char* report_schema = "ppsbench.report/2";
// Still read back (a saved baseline outlives a release): the figures /2 added stay absent.
inline constexpr const char* previous_report_schema = "ppsbench.report/1";

// The JSON document of `report --format json` (schema ppsbench.report/2, docs/report-json.md):
// {"schema", "runs": [{label, file, simulated, <statistics_json>, chrony, system, warnings}]},
// plus "latency": [...] when any file came from `ppsbench latency` (absent otherwise).
nlohmann::json report_document(const Report& report);

// Reads a saved document (/2 or /1) back as runs, each with its SavedSummary: every figure it
// holds, absent ones absent. Throws core::InputError naming `path` when it is not such a
// document, a value has the wrong type, or a run holds an impossible figure
// (impossible_figure()).
std::vector<RunAnalysis> read_report_document(std::istream& in, const std::string& path);

}  // namespace ppsbench::analysis
