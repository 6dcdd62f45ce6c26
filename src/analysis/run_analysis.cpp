// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/run_analysis.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "ppsbench/analysis/invariants.hpp"
#include "ppsbench/analysis/report_document.hpp"
#include "ppsbench/chrony/json.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/option_value.hpp"
#include "ppsbench/stats/analyze_packed.hpp"
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/packed_capture_reader.hpp"

namespace ppsbench::analysis {

namespace {

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

// A sampled log (one sample per poll) folds on its recorded period: each sample is an edge of
// that train, at a whole second. Its intervals are whole multiples of any poll, so the mode
// cannot refuse a --period of the poll, which would measure the phase from multiples of 8 s
// since 1970 (an error that depends on the time of day).
void check_sampled_period(const store::CaptureFile& file, const AnalysisSettings& settings) {
    const auto recorded = file.run_meta.period;
    if (file.run_meta.cadence != core::Cadence::sampled || !settings.period_ns ||
        *settings.period_ns == recorded.count()) {
        return;
    }
    throw core::UsageError(fmt::format(
        "--period {}: {} holds samples (one per poll) of a {} train, folded on that period; "
        "leave --period out",
        core::format_duration_option(core::Duration(*settings.period_ns)), file.path,
        core::format_duration_option(recorded)));
}

// analyze()'s default: the assert edge, or the clear edge when the capture has no assert edge.
core::Edge default_edge(const std::vector<core::Pulse>& pulses) {
    const bool any_assert = std::any_of(pulses.begin(), pulses.end(), [](const core::Pulse& p) {
        return p.edge == core::Edge::assert_edge;
    });
    return any_assert || pulses.empty() ? core::Edge::assert_edge : core::Edge::clear_edge;
}

}  // namespace

std::optional<MeasuredKernel> measured_kernel(const store::RunMeta& meta) {
    if (!meta.system || !meta.system->is_object()) {
        return std::nullopt;
    }
    const auto word = [&](const char* key) -> std::optional<std::string> {
        const auto it = meta.system->find(key);
        if (it == meta.system->end() || !it->is_string()) {
            return std::nullopt;
        }
        return it->get<std::string>();
    };
    return MeasuredKernel{word("label"), word("timestamp_context")};
}

std::string run_label(const store::RunMeta& meta, const std::string& path) {
    // Every candidate is read from a file (the capture's meta line, its fingerprint, its name):
    // shown as printable text, so an escape or a newline in it cannot rewrite a terminal line,
    // break a table row or make the JUnit file ill-formed (issue 39).
    if (!meta.label.empty()) {
        return core::printable_utf8(meta.label);
    }
    // The kernel fingerprint names the configuration: "6.1.0-27-rt-arm64 PREEMPT_RT, PPS IRQ
    // threaded" is what a comparison row should say when nobody gave a label.
    if (const auto kernel = measured_kernel(meta); kernel && kernel->label) {
        return core::printable_utf8(*kernel->label);
    }
    if (!meta.source.empty()) {
        return core::printable_utf8(meta.source);
    }
    return core::printable_utf8(std::filesystem::path(path).filename().string());
}

namespace {

// analyze_capture() on `packed` when given (read_packed_capture() left file.pulses empty),
// else on file.pulses.
RunAnalysis analyze_pulses(const store::CaptureFile& file, const core::PackedPulses* packed,
                           const AnalysisSettings& settings, std::optional<core::Edge> edge) {
    RunAnalysis run;
    run.file = file.path;
    run.label = run_label(file.run_meta, file.path);
    run.simulated = file.simulated();
    run.meta = file.run_meta;
    run.warnings = file.warnings;
    if (!file.end() && file.writer) {
        run.warnings.push_back(fmt::format(
            "{}: still being written by {}: these figures cover the {} pulses complete so far; "
            "report again when that run has ended",
            file.path, *file.writer, packed != nullptr ? packed->size() : file.pulses.size()));
    } else if (!file.end()) {
        run.warnings.push_back(fmt::format(
            "{}: no end record: the run did not finish cleanly (crash or power cut); every "
            "complete line is used",
            file.path));
    }
    check_sampled_period(file, settings);
    stats::AnalysisOptions options;
    options.period_ns = settings.period_ns.value_or(file.run_meta.period.count());
    options.clock = file.run_meta.clock;
    options.cadence = file.run_meta.cadence;
    options.kernel_sequences = file.run_meta.sequences == core::SequenceEvidence::kernel;
    options.input = file.path;
    options.period_given = settings.period_ns.has_value();
    options.edge = edge;
    options.detrend_degree = settings.detrend_degree;
    options.outlier_k = settings.outlier_k;
    options.keep_series = settings.keep_series;
    // No output reads a run's own histogram: the histograms people see are drawn on bins shared
    // by every run, from the kept series (shared_bins.cpp). Its quantiles and counts would cost
    // four selection windows and a pass over the pulses.
    options.compute_histogram = false;
    run.stats = packed != nullptr ? stats::analyze_packed(*packed, options)
                                  : stats::analyze(file.pulses, options);
    for (const auto& note : run.stats.notes) {
        run.warnings.push_back(fmt::format("{}: {}", file.path, note));
    }
    run.chrony = settings.chrony_log ? chrony_from_log(*settings.chrony_log, file, run.warnings)
                                     : chrony_of(file, run.warnings);
    try {
        run.bias = reference_bias(file, edge);
    } catch (const core::InputError& e) {
        // The path's own figures stand without it.
        run.warnings.push_back(fmt::format("{}; its bias is not reported", e.what()));
    }
    require_invariants(run, file.path);
    return run;
}

}  // namespace

RunAnalysis analyze_capture(const store::CaptureFile& file, const AnalysisSettings& settings,
                            std::optional<core::Edge> edge) {
    return analyze_pulses(file, nullptr, settings, edge);
}

std::vector<RunAnalysis> analyze_edges(const store::CaptureFile& file,
                                       const AnalysisSettings& settings) {
    const auto holds = [&](core::Edge edge) {
        return std::any_of(file.pulses.begin(), file.pulses.end(),
                           [edge](const core::Pulse& p) { return p.edge == edge; });
    };
    std::vector<core::Edge> edges;
    for (const auto edge : {core::Edge::assert_edge, core::Edge::clear_edge}) {
        if (settings.edges ? core::selects(*settings.edges, edge) : holds(edge)) {
            edges.push_back(edge);
        }
    }
    for (const auto edge : edges) {
        if (settings.edges && !holds(edge) && !file.pulses.empty()) {
            throw core::InputError(fmt::format(
                "{}: no {} edge in this capture; it holds the {} edge (--edge {})", file.path,
                core::to_string(edge), core::to_string(default_edge(file.pulses)),
                core::to_string(default_edge(file.pulses))));
        }
    }
    if (edges.size() < 2) {
        return {analyze_capture(file, settings,
                                edges.empty() ? std::nullopt : std::optional(edges.front()))};
    }
    std::vector<RunAnalysis> runs;
    for (const auto edge : edges) {
        runs.push_back(analyze_capture(file, settings, edge));
        runs.back().label += fmt::format(" ({})", core::to_string(edge));
    }
    runs.front().pulse_width = pulse_width(file.pulses, runs.front().stats.period_ns);
    return runs;
}

namespace {

// The usual capture, one edge, is analysed on its packed pulses (8 bytes a pulse and its sequence
// numbers as runs: issue 26). Both edges (pulse width), a reference path's bias and --chrony-log
// read the Pulse array.
bool needs_pulse_array(const store::PackedCapture& capture, const AnalysisSettings& settings) {
    if (settings.edges || settings.chrony_log || capture.file.run_meta.dual) {
        return true;
    }
    return !capture.pulses.one_edge();
}

}  // namespace

std::vector<RunAnalysis> analyze_edges(store::PackedCapture capture,
                                       const AnalysisSettings& settings) {
    if (needs_pulse_array(capture, settings)) {
        capture.file.pulses = capture.pulses.unpack();
        capture.pulses = {};
        return analyze_edges(capture.file, settings);
    }
    const auto edge = capture.pulses.empty() ? std::nullopt : std::optional(capture.pulses.edge(0));
    return {analyze_pulses(capture.file, &capture.pulses, settings, edge)};
}

namespace {

// The runs of a saved summary, or the one --run names.
std::vector<RunAnalysis> summary_runs(std::istream& in, const std::string& path,
                                      const AnalysisSettings& settings) {
    auto runs = read_report_document(in, path);
    // A saved summary's runs pass the same invariants as computed ones (a computed run passed
    // them in analyze_capture()).
    for (const RunAnalysis& run : runs) {
        require_invariants(run, path);
    }
    if (!settings.run) {
        return runs;
    }
    std::vector<RunAnalysis> chosen;
    chosen.push_back(select_run(std::move(runs), *settings.run, path));
    return chosen;
}

// A summary (JSON) or a capture file, by its first non-blank byte.
std::vector<RunAnalysis> runs_from_text(const std::string& text, const std::string& path,
                                        const AnalysisSettings& settings) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') {
        std::istringstream in(text);
        return summary_runs(in, path, settings);
    }
    return analyze_edges(store::parse_capture_text(text, path), settings);
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
        return summary_runs(in, path, settings);
    }
    return analyze_edges(store::read_packed_capture(path), settings);
}

}  // namespace ppsbench::analysis
