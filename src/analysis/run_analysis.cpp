#include "ppsbench/analysis/run_analysis.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
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

// The median interval between consecutive pulses of one edge: what the capture's period really
// is (0 when there are fewer than two pulses).
std::int64_t median_interval_ns(const std::vector<core::Pulse>& pulses, core::Edge edge) {
    std::vector<std::int64_t> intervals;
    std::optional<std::int64_t> last;
    for (const auto& pulse : pulses) {
        if (pulse.edge != edge) {
            continue;
        }
        if (last && pulse.timestamp_ns > *last) {
            intervals.push_back(pulse.timestamp_ns - *last);
        }
        last = pulse.timestamp_ns;
    }
    if (intervals.empty()) {
        return 0;
    }
    const auto middle = intervals.begin() + static_cast<std::ptrdiff_t>(intervals.size() / 2);
    std::nth_element(intervals.begin(), middle, intervals.end());
    return *middle;
}

// A --period the pulses contradict is refused (issue 12: "--period 2s" on 1 Hz data gave σ
// 696 ms and 1328 missed pulses, and no word that the period was wrong). 5 %: a monotonic clock
// is off by ppm, a missed pulse does not move the median, a wrong period is off by ×2 or more.
// A recorded period they contradict is a warning: importers record 1 s for logs with one line
// per poll (ntp peerstats), where the gaps are real.
void check_period(const store::CaptureFile& file, core::Edge edge, std::int64_t period_ns,
                  bool given, std::vector<std::string>& warnings) {
    const std::int64_t measured = median_interval_ns(file.pulses, edge);
    if (measured == 0 || period_ns <= 0) {
        return;
    }
    const double error =
        std::fabs(static_cast<double>(measured) / static_cast<double>(period_ns) - 1);
    if (error <= 0.05) {
        return;
    }
    const auto interval = core::format_duration_option(core::Duration(measured));
    const auto period = core::format_duration_option(core::Duration(period_ns));
    if (given) {
        throw core::UsageError(fmt::format(
            "--period {}: the {} pulses in {} are {} apart (median interval); use --period {} "
            "or leave --period out",
            period, core::to_string(edge), file.path, interval, interval));
    }
    warnings.push_back(fmt::format(
        "{}: the recorded period {} does not match the pulses, which are {} apart (median "
        "interval); --period {} analyses them at their own spacing",
        file.path, period, interval, interval));
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
    if (!meta.label.empty()) {
        return meta.label;
    }
    // The kernel fingerprint names the configuration: "6.1.0-27-rt-arm64 PREEMPT_RT, PPS IRQ
    // threaded" is what a comparison row should say when nobody gave a label.
    if (const auto kernel = measured_kernel(meta); kernel && kernel->label) {
        return *kernel->label;
    }
    if (!meta.source.empty()) {
        return meta.source;
    }
    return std::filesystem::path(path).filename().string();
}

RunAnalysis analyze_capture(const store::CaptureFile& file, const AnalysisSettings& settings,
                            std::optional<core::Edge> edge) {
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
            file.path, *file.writer, file.pulses.size()));
    } else if (!file.end()) {
        run.warnings.push_back(fmt::format(
            "{}: no end record: the run did not finish cleanly (crash or power cut); every "
            "complete line is used",
            file.path));
    }
    stats::AnalysisOptions options;
    options.period_ns = settings.period_ns.value_or(file.run_meta.period.count());
    options.clock = file.run_meta.clock;
    options.edge = edge;
    check_period(file, edge.value_or(default_edge(file.pulses)), options.period_ns,
                 settings.period_ns.has_value(), run.warnings);
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
        run.bias = reference_bias(file, edge);
    } catch (const core::InputError& e) {
        // The path's own figures stand without it.
        run.warnings.push_back(fmt::format("{}; its bias is not reported", e.what()));
    }
    return run;
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

// The runs of a saved summary, or the one --run names.
std::vector<RunAnalysis> summary_runs(std::istream& in, const std::string& path,
                                      const AnalysisSettings& settings) {
    auto runs = read_report_document(in, path);
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
    return analyze_edges(store::read_capture_file(path), settings);
}

}  // namespace ppsbench::analysis
