// SPDX-License-Identifier: GPL-2.0-or-later
#include "event_tables.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/render/units.hpp"
#include "saved_figures.hpp"

namespace ppsbench::render {

Cell run_cell(const analysis::RunAnalysis& run) {
    return Cell::of_run({run.label, run.simulated, run.file});
}

Table events_table(const std::vector<analysis::RunAnalysis>& runs) {
    Table table;
    table.title = "Events";
    table.columns = {{"run", "run", Quantity::text},
                     {"missed (sequence)", "missed_by_sequence", Quantity::count},
                     {"missed (time)", "missed_by_time", Quantity::count},
                     {"duplicates", "duplicates", Quantity::count},
                     {"out of order", "out_of_order", Quantity::count}};
    for (const auto& run : runs) {
        const auto& s = run.stats;
        table.rows.push_back(
            {run_cell(run), Cell::of(unless_saved(run, static_cast<double>(s.missed_by_sequence))),
             Cell::of(unless_saved(run, static_cast<double>(s.missed_by_time))),
             Cell::of(analysis::find_metric("duplicates").value(run)),
             Cell::of(analysis::find_metric("out_of_order").value(run))});
    }
    return table;
}

namespace {

// "4 999": digits grouped in threes, as the issue and the docs write counts.
std::string grouped(std::size_t n) {
    std::string digits = std::to_string(n);
    for (auto at = digits.size(); at > 3; at -= 3) {
        digits.insert(at - 3, " ");
    }
    return digits;
}

}  // namespace

// Each step removed, its size and the pulse it came at; "none" when there was none. Past a
// handful a list would run to thousands of characters in one cell, so it becomes a summary:
// how many, the largest, and the first and last pulse they came at.
std::string clock_steps_text(const stats::RunStatistics& stats) {
    constexpr std::size_t listed = 5;
    const auto& steps = stats.clock_steps;
    if (steps.size() > listed) {
        const auto largest =
            std::max_element(steps.begin(), steps.end(), [](const auto& a, const auto& b) {
                return std::fabs(a.size_ns) < std::fabs(b.size_ns);
            });
        return fmt::format("{} steps, largest {} at pulse {}; from pulse {} to {}",
                           grouped(steps.size()), format_ns(largest->size_ns, true), largest->pulse,
                           steps.front().pulse, steps.back().pulse);
    }
    std::string text;
    for (const auto& step : steps) {
        text += fmt::format("{}{} at pulse {}", text.empty() ? "" : "; ",
                            format_ns(step.size_ns, true), step.pulse);
    }
    return text.empty() ? "none" : text;
}

Table outliers_table(const std::vector<analysis::RunAnalysis>& runs) {
    Table table;
    table.title = "Outliers and clock steps";
    table.columns = {{"run", "run", Quantity::text},
                     {"outliers", "outliers", Quantity::count},
                     {"outlier threshold", "outlier_threshold_ns", Quantity::time_ns},
                     {"clock steps", "clock_steps", Quantity::text}};
    for (const auto& run : runs) {
        const auto& s = run.stats;
        table.rows.push_back(
            {run_cell(run), Cell::of(analysis::find_metric("outliers").value(run)),
             Cell::of(unless_saved(run, s.outliers.threshold_ns)),
             Cell::of_text(run.saved ? saved_clock_steps_text(*run.saved) : clock_steps_text(s))});
    }
    table.footnotes = {
        "Outliers are flagged, never dropped: |x − median| > k·robust σ; figures "
        "are given with and without them. Clock steps are removed before the "
        "statistics (docs/methodology.md)."};
    return table;
}

}  // namespace ppsbench::render
