#include "ppsbench/report/comparison.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "ppsbench/report/run_tables.hpp"
#include "ppsbench/report/units.hpp"
#include "ppsbench/stats/confidence.hpp"

namespace ppsbench::report {

namespace {

const std::vector<double>* headline_series(const RunAnalysis& run) {
    if (!run.stats.series) {
        return nullptr;
    }
    const auto& series = *run.stats.series;
    return run.stats.offset_ns ? &series.offset_ns : &series.detrended_ns;
}

bool is_time(Quantity q) {
    return q == Quantity::time_ns;
}

std::string interval_text(const stats::Interval& i) {
    return std::isfinite(i.lo) ? fmt::format("{:.2f}–{:.2f}", i.lo, i.hi) : "n/a";
}

}  // namespace

stats::Interval SigmaRatio::conservative() const {
    stats::Interval widest = f_interval;
    if (std::isfinite(bootstrap.lo)) {
        if (!std::isfinite(widest.lo)) {
            return bootstrap;
        }
        widest.lo = std::min(widest.lo, bootstrap.lo);
        widest.hi = std::max(widest.hi, bootstrap.hi);
    }
    return widest;
}

int SigmaRatio::direction() const {
    const auto ci = conservative();
    if (!std::isfinite(ci.lo)) {
        return 0;
    }
    if (ci.lo > 1.0) {
        return 1;
    }
    if (ci.hi < 1.0) {
        return -1;
    }
    return 0;
}

SigmaRatio sigma_ratio(const RunAnalysis& run, const RunAnalysis& baseline, double confidence,
                       std::uint64_t seed) {
    const auto& a = run.stats.headline();
    const auto& b = baseline.stats.headline();
    SigmaRatio r;
    r.confidence = confidence;
    r.ratio = a.stddev / b.stddev;
    r.f_interval = stats::stddev_ratio_f_interval(a.stddev, a.count, b.stddev, b.count, confidence);
    const auto* sa = headline_series(run);
    const auto* sb = headline_series(baseline);
    if (sa != nullptr && sb != nullptr) {
        stats::BootstrapOptions options;
        options.seed = seed;
        options.confidence = confidence;
        r.bootstrap = stats::stddev_ratio_bootstrap(*sa, *sb, options);
    }
    return r;
}

Comparison compare(const RunAnalysis& baseline, const std::vector<RunAnalysis>& runs,
                   std::vector<Metric> metrics, double confidence) {
    Comparison comparison;
    comparison.baseline = &baseline;
    comparison.metrics = std::move(metrics);
    for (const auto& run : runs) {
        ComparedRun compared;
        compared.run = &run;
        compared.sigma = sigma_ratio(run, baseline, confidence);
        for (const auto& metric : comparison.metrics) {
            compared.ratios.push_back(is_time(metric.quantity)
                                          ? metric.value(run) / metric.value(baseline)
                                          : std::numeric_limits<double>::quiet_NaN());
        }
        const auto ci = compared.sigma.conservative();
        const char* judgement = compared.sigma.direction() > 0   ? "worse, not noise"
                                : compared.sigma.direction() < 0 ? "better, not noise"
                                                                 : "within noise";
        compared.verdict = fmt::format("{}: σ {} {} ({:.0f} % CI {}), {}", run.label,
                                       format_ratio(compared.sigma.ratio), baseline.label,
                                       confidence * 100, interval_text(ci), judgement);
        comparison.runs.push_back(std::move(compared));
    }
    return comparison;
}

Table comparison_table(const Comparison& comparison, const std::vector<RunAnalysis>& all_runs) {
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
        verdicts.push_back(run.verdict);
    }
    verdicts.push_back(
        "σ ratios: the wider of the F-interval and a seeded block bootstrap; 'not noise' when it "
        "excludes 1 (docs/compare-and-gate.md).");
    table.footnotes.insert(table.footnotes.begin(), verdicts.begin(), verdicts.end());
    return table;
}

nlohmann::json comparison_json(const Comparison& comparison) {
    const auto number = [](double v) {
        return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
    };
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
                        {"verdict", compared.verdict}});
    }
    return {{"schema", "ppsbench.compare/1"},
            {"baseline",
             {{"label", comparison.baseline->label},
              {"file", comparison.baseline->file},
              {"simulated", comparison.baseline->simulated}}},
            {"runs", runs}};
}

}  // namespace ppsbench::report
