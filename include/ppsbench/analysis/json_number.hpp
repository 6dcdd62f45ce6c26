// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>

namespace ppsbench::analysis {

// A figure as JSON: NaN (not enough data, not measured) becomes null, as JSON has no NaN.
// nlohmann::json would print a NaN as null anyway, but only when dumping; converting here makes
// the value itself null, so a caller inspecting the object sees what a reader of the text will.
inline nlohmann::json json_number(double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

}  // namespace ppsbench::analysis
