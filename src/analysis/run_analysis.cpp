#include "ppsbench/analysis/run_analysis.hpp"

#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "ppsbench/analysis/report_document.hpp"
#include "ppsbench/chrony/json.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::analysis {

namespace {

std::string run_label(const store::CaptureFile& file) {
    if (!file.label().empty()) {
        return file.label();
    }
    // The kernel fingerprint names the configuration: "6.1.0-27-rt-arm64 PREEMPT_RT, PPS IRQ
    // threaded" is what a comparison row should say when nobody gave a label.
    if (const auto& system = file.run_meta.system; system && system->is_object() &&
                                                   system->contains("label") &&
                                                   (*system)["label"].is_string()) {
        return (*system)["label"].get<std::string>();
    }
    if (!file.run_meta.source.empty()) {
        return file.run_meta.source;
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

}  // namespace

RunAnalysis analyze_capture(const store::CaptureFile& file, const AnalysisSettings& settings) {
    RunAnalysis run;
    run.file = file.path;
    run.label = run_label(file);
    run.simulated = file.simulated();
    run.meta = file.meta;
    run.warnings = file.warnings;
    if (!file.end()) {
        run.warnings.push_back(fmt::format(
            "{}: no end record: the run did not finish cleanly (crash or power cut); every "
            "complete line is used",
            file.path));
    }
    stats::AnalysisOptions options;
    options.period_ns = settings.period_ns.value_or(file.run_meta.period.count());
    options.clock = file.run_meta.clock;
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
    try {
        run.bias = reference_bias(file);
    } catch (const core::InputError& e) {
        // The path's own figures stand without it.
        run.warnings.push_back(fmt::format("{}; its bias is not reported", e.what()));
    }
    return run;
}

namespace {

// A summary (JSON) or a capture file, by its first non-blank byte.
std::vector<RunAnalysis> runs_from_text(const std::string& text, const std::string& path,
                                        const AnalysisSettings& settings) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') {
        std::istringstream in(text);
        return read_report_document(in, path);
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
        std::istream& stream = path == "-" ? std::cin : file;
        std::ostringstream text;
        text << stream.rdbuf();
        return runs_from_text(text.str(), path == "-" ? "(stdin)" : path, settings);
    }
    std::ifstream in(path);
    if (in && in.peek() == '{') {
        return read_report_document(in, path);
    }
    return {analyze_capture(store::read_capture_file(path), settings)};
}

}  // namespace ppsbench::analysis
