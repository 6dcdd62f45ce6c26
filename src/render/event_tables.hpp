// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the verbose report's events, outliers and clock steps tables (run_tables.cpp lists
// them in detail_tables).

#include <string>
#include <vector>

#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/render/table.hpp"

namespace ppsbench::render {

// A row's first cell: the run's label, marked when simulated, with its file.
Cell run_cell(const analysis::RunAnalysis& run);

// Missed pulses (by sequence, by time), duplicates and pulses out of order, one row per run.
Table events_table(const std::vector<analysis::RunAnalysis>& runs);
// Outliers, their threshold and the clock steps, one row per run.
Table outliers_table(const std::vector<analysis::RunAnalysis>& runs);

// The clock steps cell: "none", up to five steps each with its size and pulse, or past five a
// summary ("4 999 steps, largest +1.00 ms at pulse 17; from pulse 2 to 9998").
std::string clock_steps_text(const stats::RunStatistics& stats);

}  // namespace ppsbench::render
