// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/statistics_json.hpp"

#include <fmt/format.h>

#include "ppsbench/analysis/json_number.hpp"
#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/core/pulse.hpp"

namespace ppsbench::analysis {

namespace {

nlohmann::json numbers(const std::vector<double>& values) {
    auto array = nlohmann::json::array();
    for (double v : values) {
        array.push_back(json_number(v));
    }
    return array;
}

// Every figure of the registry, percentiles under "abs_percentiles", σ's interval, and σ with
// the flagged outliers left out (the registry's sigma_no_outliers).
nlohmann::json summary_json(const stats::Summary& s, const stats::Summary& without_outliers) {
    nlohmann::json j = nlohmann::json::object();
    nlohmann::json percentiles = nlohmann::json::object();
    for (const auto& figure : summary_figures()) {
        (figure.abs_percentile ? percentiles : j)[std::string(figure.document_key)] =
            json_number(figure.get(s));
    }
    j["abs_percentiles"] = std::move(percentiles);
    j["stddev_ci95"] =
        nlohmann::json::array({json_number(s.stddev_ci95.lo), json_number(s.stddev_ci95.hi)});
    j["stddev_without_outliers"] = json_number(without_outliers.stddev);
    return j;
}

nlohmann::json stability_json(const stats::Stability& s) {
    nlohmann::json j = {{"tau_s", numbers(s.tau_s)}};
    for (const auto& figure : stability_figures()) {
        j[std::string(figure.document_key)] = numbers(s.*figure.values);
    }
    return j;
}

}  // namespace

nlohmann::json statistics_json(const stats::RunStatistics& run) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& count : run_counts()) {
        j[std::string(count.document_key)] = static_cast<std::uint64_t>(count.get(run));
    }
    auto steps = nlohmann::json::array();
    for (const auto& step : run.clock_steps) {
        steps.push_back(
            {{"timestamp_ns", step.timestamp_ns}, {"size_ns", json_number(step.size_ns)}});
    }
    j["clock_steps"] = std::move(steps);
    // A tai run has a phase offset as a realtime run has: only this tells them apart.
    j["clock"] = core::to_string(run.clock);
    // How the pulses were recorded and whether the clock ran free: what the figures mean (a
    // sampled log's gaps are not losses; a free-running clock's headline is the residuals).
    j["cadence"] = std::string(core::to_string(run.cadence));
    j["sequences"] = std::string(core::to_string(run.sequences));
    j["free_running"] = run.free_running;
    j["drift_judged"] = run.drift_judged;
    stats::Summary none;
    none.stddev = stats::Summary::nan;
    j["offset_ns"] =
        run.offset_ns ? summary_json(*run.offset_ns, run.offset_ns_without_outliers.value_or(none))
                      : nlohmann::json(nullptr);
    j["detrended_ns"] = summary_json(run.detrended_ns, run.detrended_ns_without_outliers);
    j["period_jitter_ns"] =
        summary_json(run.period_jitter_ns, run.period_jitter_ns_without_outliers);
    j["stability"] = run.stability ? stability_json(*run.stability) : nlohmann::json(nullptr);
    return j;
}

}  // namespace ppsbench::analysis
