// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What the run tables show of a saved summary (`report --format json` read back), which holds
// the registry's figures but not every detail of the statistics behind them.

#include <string>

#include "ppsbench/analysis/run_analysis.hpp"

namespace ppsbench::render {

// `value`, or NaN ("—") for a saved summary, which does not hold it (how missed pulses were
// found, the outlier threshold): never the 0 a default RunStatistics holds.
double unless_saved(const analysis::RunAnalysis& run, double value);

// A saved summary's clock steps: the sizes it holds (it keeps no pulse indices), "none", or
// "—" when it holds no "clock_steps" at all.
std::string saved_clock_steps_text(const analysis::SavedSummary& saved);

}  // namespace ppsbench::render
