// SPDX-License-Identifier: GPL-2.0-or-later
#include "saved_figures.hpp"

#include <limits>

#include "ppsbench/render/units.hpp"

namespace ppsbench::render {

double unless_saved(const analysis::RunAnalysis& run, double value) {
    return run.saved ? std::numeric_limits<double>::quiet_NaN() : value;
}

std::string saved_clock_steps_text(const analysis::SavedSummary& saved) {
    if (!saved.clock_steps.is_array()) {
        return "—";
    }
    std::string steps;
    for (const auto& step : saved.clock_steps) {
        const auto size = step.is_object() ? step.value("size_ns", nlohmann::json()) : step;
        steps += (steps.empty() ? "" : "; ") +
                 (size.is_number() ? format_ns(size.get<double>(), true) : std::string("—"));
    }
    return steps.empty() ? "none" : steps;
}

}  // namespace ppsbench::render
