// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/render/comparison_view.hpp"

#include <fmt/format.h>
#include <cmath>
#include <limits>

#include "ppsbench/analysis/json_number.hpp"
#include "ppsbench/analysis/report_document.hpp"
#include "ppsbench/render/run_tables.hpp"
#include "ppsbench/render/units.hpp"

namespace ppsbench::render {

namespace {

std::string interval_text(const stats::Interval& i) {
    return std::isfinite(i.lo) ? fmt::format("{:.2f}–{:.2f}", i.lo, i.hi) : "n/a";
}

}  // namespace

std::string verdict(const analysis::Comparison& comparison, const analysis::ComparedRun& run) {
    const auto ci = run.sigma.conservative();
    const char* judgement = run.sigma.direction() > 0   ? "worse, not noise"
                            : run.sigma.direction() < 0 ? "better, not noise"
                                                        : "within noise";
    return fmt::format("{}: σ {} {} ({} % CI {}), {}", run.run->label,
                       format_ratio(run.sigma.ratio), comparison.baseline->label,
                       confidence_percent(comparison.confidence), interval_text(ci), judgement);
}

Table comparison_table(const analysis::Comparison& comparison,
                       const std::vector<analysis::RunAnalysis>& all_runs) {
    Table table = runs_table(all_runs, comparison.metrics);
    table.title = fmt::format("Compared with {} (baseline)", comparison.baseline->label);
    table.columns.push_back({"σ vs baseline", "sigma_ratio", Quantity::ratio});
    // all_runs is the baseline followed by the compared runs, in order.
    table.rows.front().push_back(Cell::of_ratio(1.0, std::numeric_limits<double>::quiet_NaN(),
                                                std::numeric_limits<double>::quiet_NaN()));
    for (std::size_t i = 0; i < comparison.runs.size(); ++i) {
        const auto& sigma = comparison.runs[i].sigma;
        const auto ci = sigma.conservative();
        table.rows[i + 1].push_back(Cell::of_ratio(sigma.ratio, ci.lo, ci.hi));
    }
    std::vector<std::string> verdicts;
    for (const auto& run : comparison.runs) {
        verdicts.push_back(verdict(comparison, run));
    }
    verdicts.push_back(
        "σ ratios: the wider of the F-interval and a seeded block bootstrap; 'not noise' when it "
        "excludes 1 (docs/compare-and-gate.md).");
    table.footnotes.insert(table.footnotes.begin(), verdicts.begin(), verdicts.end());
    return table;
}

nlohmann::json comparison_document(const analysis::Comparison& comparison) {
    const auto number = [](double v) { return analysis::json_number(v); };
    const auto interval = [&](const stats::Interval& i) {
        return nlohmann::json::array({number(i.lo), number(i.hi)});
    };
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& compared : comparison.runs) {
        nlohmann::json metrics = nlohmann::json::object();
        for (std::size_t m = 0; m < comparison.metrics.size(); ++m) {
            const auto& metric = comparison.metrics[m];
            metrics[metric.json_key] = {{"value", number(metric.value(*compared.run))},
                                        {"baseline", number(metric.value(*comparison.baseline))},
                                        {"ratio", number(compared.ratios[m])}};
        }
        runs.push_back({{"label", compared.run->label},
                        {"file", compared.run->file},
                        {"simulated", compared.run->simulated},
                        {"metrics", metrics},
                        {"sigma_ratio",
                         {{"ratio", number(compared.sigma.ratio)},
                          {"f_interval", interval(compared.sigma.f_interval)},
                          {"bootstrap", interval(compared.sigma.bootstrap)},
                          {"confidence", compared.sigma.confidence},
                          {"direction", compared.sigma.direction()}}},
                        {"verdict", verdict(comparison, compared)}});
    }
    return {{analysis::schema_key, "ppsbench.compare/2"},
            {"baseline",
             {{"label", comparison.baseline->label},
              {"file", comparison.baseline->file},
              {"simulated", comparison.baseline->simulated}}},
            {"runs", runs}};
}

}  // namespace ppsbench::render
