// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <vector>

#include "ppsbench/analysis/run_analysis.hpp"

namespace ppsbench::analysis {

// Runs of one table, plot or document that share a label get told apart by where they came
// from: "sim: threaded (rt-1.csv)", "sim: threaded (rt-2.csv)"; by the path as given when the
// file names are the same too (a/run.csv, b/run.csv); by their place, "#1", "#2", when even
// that is (the same file given twice). A label no other run has stays as it is.
void make_labels_distinct(std::vector<RunAnalysis>& runs);

}  // namespace ppsbench::analysis
