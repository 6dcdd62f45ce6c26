#include "ppsbench/report/run_analysis.hpp"

#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "ppsbench/chrony/json.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/json.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::report {

namespace {

constexpr const char* report_schema = "ppsbench.report/1";

std::string run_label(const store::CaptureFile& file) {
    if (!file.label().empty()) {
        return file.label();
    }
    // The kernel fingerprint names the configuration: "6.1.0-27-rt-arm64 PREEMPT_RT, PPS IRQ
    // threaded" is what a comparison row should say when nobody gave a label.
    if (const auto it = file.meta.find("system"); it != file.meta.end() && it->is_object() &&
                                                  it->contains("label") &&
                                                  (*it)["label"].is_string()) {
        return (*it)["label"].get<std::string>();
    }
    if (file.meta.contains("source") && file.meta["source"].is_string()) {
        return file.meta["source"].get<std::string>();
    }
    return std::filesystem::path(file.path).filename().string();
}

std::optional<chrony::ChronySummary> chrony_of(const store::CaptureFile& file,
                                               std::vector<std::string>& warnings) {
    std::vector<chrony::ChronySample> samples;
    for (const auto& note : file.notes) {
        if (note.tag != "chrony") {
            continue;
        }
        try {
            samples.push_back(note.body.get<chrony::ChronySample>());
        } catch (const std::exception& e) {
            warnings.push_back(
                fmt::format("{}: a chrony sample could not be read ({}); it is "
                            "left out",
                            file.path, e.what()));
        }
    }
    if (samples.empty()) {
        return std::nullopt;
    }
    return chrony::summarize(samples);
}

stats::Summary summary_from_json(const nlohmann::json& j) {
    stats::Summary s;
    const auto number = [&](const char* key) {
        return j.contains(key) && j[key].is_number() ? j[key].get<double>() : stats::Summary::nan;
    };
    s.mean = number("mean");
    s.stddev = number("stddev");
    s.peak_to_peak = number("peak_to_peak");
    s.min = number("min");
    s.max = number("max");
    s.rms = number("rms");
    s.median = number("median");
    s.robust_stddev = number("robust_stddev");
    if (j.contains("abs_percentiles") && j["abs_percentiles"].is_object()) {
        const auto& p = j["abs_percentiles"];
        const auto pick = [&](const char* key) {
            return p.contains(key) && p[key].is_number() ? p[key].get<double>()
                                                         : stats::Summary::nan;
        };
        s.abs_percentiles.p50 = pick("p50");
        s.abs_percentiles.p90 = pick("p90");
        s.abs_percentiles.p99 = pick("p99");
        s.abs_percentiles.p99_9 = pick("p99.9");
        s.abs_percentiles.p99_99 = pick("p99.99");
        s.abs_percentiles.max = pick("max");
    }
    return s;
}

// A run as saved by `report --format json`: enough for absolute limits and F-intervals.
RunAnalysis run_from_json(const nlohmann::json& j, const std::string& path) {
    RunAnalysis run;
    run.file = j.value("file", path);
    run.label = j.value("label", path);
    run.simulated = j.value("simulated", false);
    auto& st = run.stats;
    st.pulses = j.value("pulses", std::size_t{0});
    st.missed_pulses = j.value("missed_pulses", std::uint64_t{0});
    st.clock = j.contains("offset_ns") && j["offset_ns"].is_object() ? core::ClockId::realtime
                                                                     : core::ClockId::monotonic;
    if (st.clock == core::ClockId::realtime) {
        st.offset_ns = summary_from_json(j["offset_ns"]);
        st.offset_ns->count = st.pulses;
    }
    if (j.contains("detrended_ns") && j["detrended_ns"].is_object()) {
        st.detrended_ns = summary_from_json(j["detrended_ns"]);
        st.detrended_ns.count = st.pulses;
    }
    if (j.contains("period_jitter_ns") && j["period_jitter_ns"].is_object()) {
        st.period_jitter_ns = summary_from_json(j["period_jitter_ns"]);
    }
    run.warnings.push_back(fmt::format(
        "{}: a saved summary, not a capture: no pulses, so comparisons use the F-interval only",
        path));
    return run;
}

}  // namespace

RunAnalysis analyze_capture(const store::CaptureFile& file, const AnalysisSettings& settings) {
    RunAnalysis run;
    run.file = file.path;
    run.label = run_label(file);
    run.simulated = file.simulated();
    run.meta = file.meta;
    run.warnings = file.warnings;
    if (file.end_record() == nullptr) {
        run.warnings.push_back(fmt::format(
            "{}: no end record: the run did not finish cleanly (crash or power cut); every "
            "complete line is used",
            file.path));
    }
    stats::AnalysisOptions options;
    options.period_ns = settings.period_ns.value_or(
        file.meta.value("period_ns", static_cast<std::int64_t>(core::ns_per_second)));
    options.clock = core::parse_clock_id(file.meta.value("clock", std::string("realtime")))
                        .value_or(core::ClockId::realtime);
    options.detrend_degree = settings.detrend_degree;
    options.outlier_k = settings.outlier_k;
    options.keep_series = settings.keep_series;
    if (settings.bin_width_ns) {
        options.histogram.bin_width = *settings.bin_width_ns;
    }
    run.stats = stats::analyze(file.pulses, options);
    for (const auto& note : run.stats.notes) {
        run.warnings.push_back(fmt::format("{}: {}", file.path, note));
    }
    run.chrony = chrony_of(file, run.warnings);
    return run;
}

namespace {

// A summary (JSON) or a capture file, by its first byte.
std::vector<RunAnalysis> runs_from_text(std::string_view text, const std::string& path,
                                        const AnalysisSettings& settings) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && text[first] == '{') {
        nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
        if (document.is_discarded() || !document.is_object() ||
            document.value("schema", "") != report_schema || !document.contains("runs") ||
            !document["runs"].is_array()) {
            throw core::InputError(fmt::format(
                "{}: not a ppsbench summary (expected JSON with \"schema\": \"{}\" from "
                "'ppsbench report --format json')",
                path, report_schema));
        }
        std::vector<RunAnalysis> runs;
        for (const auto& run : document["runs"]) {
            runs.push_back(run_from_json(run, path));
        }
        return runs;
    }
    return {analyze_capture(store::parse_capture_text(text, path), settings)};
}

// Standard input ("-") and pipes (/dev/stdin, <(...)) can be read only once: the whole stream
// is read, then parsed from memory.
bool is_stream(const std::string& path) {
    std::error_code ec;
    return path == "-" ||
           (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec) &&
            !std::filesystem::is_directory(path, ec));
}

}  // namespace

std::vector<RunAnalysis> load_runs(const std::string& path, const AnalysisSettings& settings) {
    if (is_stream(path)) {
        std::ifstream file;
        if (path != "-") {
            file.open(path, std::ios::binary);
            if (!file) {
                throw core::InputError(fmt::format("{}: cannot open; check the path", path));
            }
        }
        std::istream& in = path == "-" ? std::cin : file;
        std::ostringstream text;
        text << in.rdbuf();
        return runs_from_text(text.str(), path == "-" ? "(stdin)" : path, settings);
    }
    std::ifstream in(path);
    if (in && in.peek() == '{') {
        std::ostringstream text;
        text << in.rdbuf();
        return runs_from_text(text.str(), path, settings);
    }
    return {analyze_capture(store::read_capture_file(path), settings)};
}

nlohmann::json report_json(const std::vector<RunAnalysis>& runs) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& run : runs) {
        nlohmann::json j = {{"label", run.label}, {"file", run.file}, {"simulated", run.simulated}};
        j.update(stats::to_json(run.stats));
        j["chrony"] = run.chrony ? nlohmann::json(*run.chrony) : nlohmann::json(nullptr);
        j["system"] = run.meta.contains("system") ? run.meta["system"] : nlohmann::json(nullptr);
        j["warnings"] = run.warnings;
        list.push_back(std::move(j));
    }
    return {{"schema", report_schema}, {"runs", list}};
}

}  // namespace ppsbench::report
