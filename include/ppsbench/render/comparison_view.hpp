// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ppsbench/analysis/comparison.hpp"
#include "ppsbench/render/table.hpp"

namespace ppsbench::render {

// "PREEMPT_RT: σ ×3.26 Stock kernel (95 % CI 3.10–3.43), worse, not noise"
std::string verdict(const analysis::Comparison& comparison, const analysis::ComparedRun& run);

// The write-up-style table: a row per run (baseline first), the metrics, then "σ vs baseline"
// with its interval; verdict lines as footnotes.
Table comparison_table(const analysis::Comparison& comparison,
                       const std::vector<analysis::RunAnalysis>& all_runs);

// The JSON document of `compare --format json` (schema ppsbench.compare/2).
nlohmann::json comparison_document(const analysis::Comparison& comparison);

}  // namespace ppsbench::render
