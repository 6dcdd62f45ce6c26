#include "ppsbench/analysis/report_document.hpp"

#include <fmt/format.h>

#include "ppsbench/analysis/json_number.hpp"
#include "ppsbench/analysis/statistics_json.hpp"
#include "ppsbench/chrony/json.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::analysis {

namespace {

// A run as saved by `report --format json`: enough for absolute limits and F-intervals.
RunAnalysis run_from_json(const nlohmann::json& j, const std::string& path) {
    RunAnalysis run;
    run.file = j.value("file", path);
    run.label = j.value("label", path);
    run.simulated = j.value("simulated", false);
    run.stats = statistics_from_json(j);
    if (const auto bias = j.find("bias"); bias != j.end() && bias->is_object()) {
        run.bias = bias_from_json(*bias);
    }
    run.warnings.push_back(fmt::format(
        "{}: a saved summary, not a capture: no pulses, so comparisons use the F-interval only",
        path));
    return run;
}

nlohmann::json distribution_json(const latency::Distribution& d) {
    return {{"count", d.summary.count},
            {"mean", json_number(d.summary.mean)},
            {"stddev", json_number(d.summary.stddev)},
            {"min", json_number(d.summary.min)},
            {"max", json_number(d.summary.max)},
            {"p50", json_number(d.p50)},
            {"p90", json_number(d.p90)},
            {"p99", json_number(d.p99)}};
}

// A `ppsbench latency` run: what was driven and sensed, and the two delay distributions (ns).
nlohmann::json latency_json(const latency::LatencySummary& run) {
    return {
        {"label", run.label},
        {"file", run.file},
        {"sense", run.sense},
        {"drive", run.drive},
        {"clock", run.clock},
        {"edges_driven", run.edges_driven},
        {"unseen_edges", run.unseen_edges},
        {"stray_events", run.stray_events},
        {"drive_to_ts_ns", distribution_json(run.drive_to_kernel)},
        {"ts_to_wake_ns", distribution_json(run.kernel_to_wake)},
        {"cpu_idle_fraction", json_number(run.cpu_idle_fraction.value_or(stats::Summary::nan))}};
}

}  // namespace

nlohmann::json report_document(const Report& report) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& run : report.runs) {
        nlohmann::json j = {{"label", run.label}, {"file", run.file}, {"simulated", run.simulated}};
        j.update(statistics_json(run.stats));
        j["chrony"] = run.chrony ? nlohmann::json(*run.chrony) : nlohmann::json(nullptr);
        j["bias"] = run.bias ? to_json(*run.bias) : nlohmann::json(nullptr);
        j["system"] = run.meta.contains("system") ? run.meta["system"] : nlohmann::json(nullptr);
        j["warnings"] = run.warnings;
        list.push_back(std::move(j));
    }
    nlohmann::json document = {{schema_key, report_schema}, {"runs", list}};
    if (!report.latency.empty()) {
        nlohmann::json latency = nlohmann::json::array();
        for (const auto& run : report.latency) {
            latency.push_back(latency_json(run));
        }
        document["latency"] = std::move(latency);
    }
    return document;
}

std::vector<RunAnalysis> read_report_document(std::istream& in, const std::string& path) {
    nlohmann::json document = nlohmann::json::parse(in, nullptr, false);
    if (document.is_discarded() || document.value(schema_key, "") != report_schema ||
        !document.contains("runs") || !document["runs"].is_array()) {
        throw core::InputError(
            fmt::format("{}: not a ppsbench summary (expected JSON with \"schema\": \"{}\" from "
                        "'ppsbench report --format json')",
                        path, report_schema));
    }
    std::vector<RunAnalysis> runs;
    for (const auto& run : document["runs"]) {
        runs.push_back(run_from_json(run, path));
    }
    return runs;
}

}  // namespace ppsbench::analysis
