#include "ppsbench/analysis/statistics_json.hpp"

#include <fmt/format.h>

#include "ppsbench/analysis/json_number.hpp"
#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/store/json_integer.hpp"

namespace ppsbench::analysis {

namespace {

nlohmann::json numbers(const std::vector<double>& values) {
    auto array = nlohmann::json::array();
    for (double v : values) {
        array.push_back(json_number(v));
    }
    return array;
}

// Every figure of the registry, percentiles under "abs_percentiles", and σ's interval.
nlohmann::json summary_json(const stats::Summary& s) {
    nlohmann::json j = nlohmann::json::object();
    nlohmann::json percentiles = nlohmann::json::object();
    for (const auto& figure : summary_figures()) {
        (figure.abs_percentile ? percentiles : j)[std::string(figure.document_key)] =
            json_number(figure.get(s));
    }
    j["abs_percentiles"] = std::move(percentiles);
    j["stddev_ci95"] =
        nlohmann::json::array({json_number(s.stddev_ci95.lo), json_number(s.stddev_ci95.hi)});
    return j;
}

stats::Summary summary_from_json(const nlohmann::json& j, std::size_t count) {
    stats::Summary s;
    s.count = count;
    const nlohmann::json empty = nlohmann::json::object();
    const auto& percentiles = j.contains("abs_percentiles") && j["abs_percentiles"].is_object()
                                  ? j["abs_percentiles"]
                                  : empty;
    for (const auto& figure : summary_figures()) {
        const auto& object = figure.abs_percentile ? percentiles : j;
        const std::string key(figure.document_key);
        figure.set(s, object.contains(key) && object[key].is_number() ? object[key].get<double>()
                                                                      : stats::Summary::nan);
    }
    return s;
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
    j["offset_ns"] = run.offset_ns ? summary_json(*run.offset_ns) : nlohmann::json(nullptr);
    j["detrended_ns"] = summary_json(run.detrended_ns);
    j["period_jitter_ns"] = summary_json(run.period_jitter_ns);
    j["stability"] = run.stability ? stability_json(*run.stability) : nlohmann::json(nullptr);
    return j;
}

stats::RunStatistics statistics_from_json(const nlohmann::json& j) {
    stats::RunStatistics st;
    for (const auto& count : run_counts()) {
        const std::string key(count.document_key);
        if (count.restore != nullptr && j.contains(key) && j[key].is_number()) {
            // A count is a whole number that a double holds exactly; anything else (-5, 1e35)
            // is a damaged document, not a count to cast (found with fuzz/report_document_fuzz).
            const auto value = store::json_integer<std::uint64_t>(j[key]);
            if (!value || *value > (std::uint64_t{1} << 53U)) {
                throw core::InputError(
                    fmt::format("\"{}\" is {}, not a count", key, j[key].dump()));
            }
            count.restore(st, static_cast<double>(*value));
        }
    }
    const auto is_object = [&](const char* key) { return j.contains(key) && j[key].is_object(); };
    st.clock = is_object("offset_ns") ? core::ClockId::realtime : core::ClockId::monotonic;
    if (st.clock == core::ClockId::realtime) {
        st.offset_ns = summary_from_json(j["offset_ns"], st.pulses);
    }
    if (is_object("detrended_ns")) {
        st.detrended_ns = summary_from_json(j["detrended_ns"], st.pulses);
    }
    if (is_object("period_jitter_ns")) {
        st.period_jitter_ns = summary_from_json(j["period_jitter_ns"], 0);
    }
    return st;
}

}  // namespace ppsbench::analysis
