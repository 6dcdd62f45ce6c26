// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>
#include <vector>

#include "ppsbench/analysis/gate.hpp"
#include "ppsbench/render/junit.hpp"

namespace ppsbench::render {

// "σ ratio vs Stock kernel ≤ 1.25", "peak-to-peak ≤ 40.0 µs", "missed pulses ≤ 3"
std::string check_name(const analysis::GateCheck& check);
// The numbers and the rule, one line.
std::string check_message(const analysis::GateCheck& check);

std::string gate_summary(const analysis::GateResult& result, const analysis::RunAnalysis& current);
std::vector<JunitCase> gate_junit(const analysis::GateResult& result);

}  // namespace ppsbench::render
