// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/report_document.hpp"

#include <fmt/format.h>
#include <cmath>

#include "ppsbench/analysis/impossible_figure.hpp"
#include "ppsbench/analysis/json_number.hpp"
#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/analysis/statistics_json.hpp"
#include "ppsbench/chrony/json.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/option_value.hpp"

namespace ppsbench::analysis {

namespace {

// A run as saved by `report --format json`: enough for absolute limits and F-intervals.
// A run written by another program, or edited by hand, may hold anything: each field is
// checked, so a damaged document is one InputError naming the file, not nlohmann's type_error
// (found with fuzz/report_document_fuzz: "runs": [1], or "label": 5, ended in an internal error).
RunAnalysis run_from_json(const nlohmann::json& j, const std::string& path, std::size_t index) {
    const auto damaged = [&](std::string_view what) {
        return core::InputError(
            fmt::format("{}: {}; save it again with 'ppsbench report --format json'", path, what));
    };
    if (!j.is_object()) {
        throw damaged(fmt::format("a run in \"runs\" is {}, not an object", j.type_name()));
    }
    const auto text = [&](const char* key) {
        const auto it = j.find(key);
        if (it == j.end()) {
            return path;
        }
        if (!it->is_string()) {
            throw damaged(fmt::format("\"{}\" is {}, not a string", key, it->type_name()));
        }
        return it->get<std::string>();
    };
    RunAnalysis run;
    // Shown in every output: printable, whatever the document holds (issue 39).
    run.file = core::printable_utf8(text("file"));
    run.label = core::printable_utf8(text("label"));
    const auto simulated = j.find("simulated");
    if (simulated != j.end() && !simulated->is_boolean()) {
        throw damaged(
            fmt::format("\"simulated\" is {}, not true or false", simulated->type_name()));
    }
    run.simulated = simulated != j.end() && simulated->get<bool>();
    SavedStatistics saved;
    try {
        saved = statistics_from_json(j);
    } catch (const core::InputError& e) {
        throw damaged(e.what());
    }
    if (const auto why = impossible_figure(saved.stats)) {
        throw core::InputError(fmt::format(
            "{}: run {} (\"{}\") holds an impossible figure, {}; it was edited or damaged: save "
            "it again with 'ppsbench report --format json'",
            path, index, run.label, *why));
    }
    run.stats = std::move(saved.stats);
    const auto chrony = j.find("chrony");
    run.saved = SavedSummary{path, index, std::move(saved.figures), std::move(saved.clock_steps),
                             chrony == j.end() ? nlohmann::json(nullptr) : *chrony};
    if (const auto bias = j.find("bias"); bias != j.end() && bias->is_object()) {
        try {
            run.bias = bias_from_json(*bias);
        } catch (const core::InputError& e) {
            throw damaged(e.what());
        }
    }
    run.warnings.push_back(fmt::format(
        "{}: a saved summary, not a capture: no pulses, so comparisons use the F-interval only",
        path));
    return run;
}

// A saved summary saved again keeps what it held: its counts (RunStatistics holds an absent
// one as 0, and no outlier indices) and its clock steps come from the document, absent as null.
void restore_saved_counts(nlohmann::json& j, const SavedSummary& saved) {
    for (const auto& count : run_counts()) {
        const std::string key(count.document_key);
        const double value = saved.figure(key);
        j[key] = std::isnan(value) ? nlohmann::json(nullptr)
                                   : nlohmann::json(static_cast<std::uint64_t>(value));
    }
    j["clock_steps"] = saved.clock_steps;
    j["chrony"] = saved.chrony;
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
        if (run.saved) {
            restore_saved_counts(j, *run.saved);
        }
        j["bias"] = run.bias ? to_json(*run.bias) : nlohmann::json(nullptr);
        j["system"] = run.meta && run.meta->system ? *run.meta->system : nlohmann::json(nullptr);
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
    const auto schema = document.is_object() ? document.find(schema_key) : document.end();
    // /1 documents are read too: they lack duplicates, out_of_order and σ without outliers,
    // which then stay absent (docs/report-json.md).
    if (document.is_discarded() || schema == document.end() ||
        (*schema != report_schema && *schema != previous_report_schema) ||
        !document.contains("runs") || !document["runs"].is_array()) {
        throw core::InputError(
            fmt::format("{}: not a ppsbench summary (expected JSON with \"schema\": \"{}\" from "
                        "'ppsbench report --format json')",
                        path, report_schema));
    }
    std::vector<RunAnalysis> runs;
    for (const auto& run : document["runs"]) {
        runs.push_back(run_from_json(run, path, runs.size() + 1));
    }
    return runs;
}

}  // namespace ppsbench::analysis
