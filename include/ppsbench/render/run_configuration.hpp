// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/render/table.hpp"

namespace ppsbench::render {

// One row per run: source, kernel, PREEMPT_RT, where the PPS timestamp is taken, chrony's state
// at the end, and the bias against a hardware reference where the run measured one; "—" where
// the run cannot tell (a simulation has no kernel of its own, a saved summary no metadata).
Table run_configuration_table(const std::vector<analysis::RunAnalysis>& runs);

// Per run with a recorded fingerprint: its label and the findings (analysis/recorded_system.hpp).
std::vector<std::pair<std::string, std::vector<std::string>>> recorded_findings(
    const std::vector<analysis::RunAnalysis>& runs);

}  // namespace ppsbench::render
