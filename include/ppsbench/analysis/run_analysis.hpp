// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/analysis/bias.hpp"
#include "ppsbench/analysis/chrony_log.hpp"
#include "ppsbench/analysis/pulse_width.hpp"
#include "ppsbench/chrony/summary.hpp"
#include "ppsbench/stats/analyze.hpp"
#include "ppsbench/store/capture_file.hpp"
#include "ppsbench/store/packed_capture_reader.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::analysis {

// Where a run read from a saved summary (`report --format json`) came from, and the figures of
// the document that RunStatistics cannot hold as absent (its counts are integers) or that are
// not restored whole (chrony's): one the document does not hold (an older schema, an edited
// file) stays absent, so a gate on it refuses instead of judging a 0 it never said.
struct SavedSummary {
    std::string path;       // the summary file: what errors about this run name
    std::size_t index = 1;  // the run's place in the document's "runs", from 1
    // By the metric's column key: the counts ("pulses", "duplicates", "clock_steps") and
    // chrony's figures ("chrony_rms_offset_ns"); NaN when absent.
    std::map<std::string, double, std::less<>> figures;
    // The document's "clock_steps" as it was (null when absent): written back as is when the
    // summary is saved again, as the steps' pulse indices are not known without the pulses.
    nlohmann::json clock_steps;
    nlohmann::json chrony;  // the document's "chrony" object, likewise (null when absent)
    double figure(std::string_view key) const;
};

// What `report`, `compare` and `gate` know about one run: who it is and every statistic.
struct RunAnalysis {
    std::string label;  // --label, else the kernel fingerprint's label, else the source
    std::string file;
    bool simulated = false;
    // The capture's `# meta` line. Absent for a saved summary (`report --format json`), which
    // keeps figures, not how they were captured: no source, host, start or fingerprint.
    std::optional<store::RunMeta> meta;
    stats::RunStatistics stats;
    std::optional<chrony::ChronySummary> chrony;  // when the run sampled chronyd
    // The path's lateness against a hardware reference of the same two-source run (a PHC).
    std::optional<Bias> bias;
    // Assert to clear, on the assert run of a capture of both edges (report's footnote).
    std::optional<PulseWidth> pulse_width;
    // Problems met while reading or analysing (a torn last line, no end record), shown once.
    std::vector<std::string> warnings;
    std::optional<SavedSummary> saved;  // when read from a saved summary

    // The file a message about this run names: the summary it was read from, else `file`
    // (a summary's `file` is the capture it was made of, which the user may not have).
    const std::string& input() const { return saved ? saved->path : file; }
};

// What the kernel fingerprint of a device run (RunMeta::system) says was measured. The
// fingerprint is kept as JSON for people; these are the words tables and labels show of it.
struct MeasuredKernel {
    std::optional<std::string> label;  // "6.1.0-27-rt-arm64 PREEMPT_RT, PPS IRQ threaded"
    std::optional<std::string> timestamp_context;  // where the PPS timestamp is taken
};

// Absent when the run recorded no fingerprint (a sim, an import) or could not read one
// ("system": null).
std::optional<MeasuredKernel> measured_kernel(const store::RunMeta& meta);

// The name a run goes by in tables and Prometheus labels: its --label, else what its kernel
// fingerprint says was measured, else its source, else the file's name. The live figures of
// `run --prometheus` use it too, so they carry the run="..." that `report` prints.
std::string run_label(const store::RunMeta& meta, const std::string& path);

struct AnalysisSettings {
    // --period: overrides the recorded period. Either is refused when the most common interval
    // contradicts it (stats::analyze(): a whole multiple or fraction, or over 1000 ppm off).
    std::optional<std::int64_t> period_ns;
    // --edge: the edges to analyse, one run each. Unset: every edge the capture holds.
    std::optional<core::EdgeSelection> edges;
    int detrend_degree = 1;              // --detrend
    double outlier_k = 8.0;              // --outlier-k
    std::optional<double> bin_width_ns;  // --bin-width
    // Keep the per-pulse series: plots and the bootstrap of compare/gate need them.
    bool keep_series = false;
    // --run LABEL|N: the one run to take from each saved summary (select_run()).
    std::optional<std::string> run;
    // --chrony-log: chrony's figures of every capture from this log (chrony_from_log()), not
    // from its `# chrony` samples; a saved summary keeps the figures it holds.
    std::shared_ptr<const ChronyLog> chrony_log;
};

// One run: the edge `edge`, by default the assert edge (the clear edge when there is none).
RunAnalysis analyze_capture(const store::CaptureFile& file, const AnalysisSettings& settings,
                            std::optional<core::Edge> edge = std::nullopt);

// One run per analysed edge (settings.edges, else every edge the file holds); a run of a file
// holding both edges is labelled "LABEL (assert)" / "LABEL (clear)". Throws core::InputError
// when the file holds none of the edges asked for.
std::vector<RunAnalysis> analyze_edges(const store::CaptureFile& file,
                                       const AnalysisSettings& settings);

// The same of a capture read for analysis (read_packed_capture(), read_joined_capture()).
std::vector<RunAnalysis> analyze_edges(store::PackedCapture capture,
                                       const AnalysisSettings& settings);

// Reads FILE: a capture file, or a JSON summary saved from `report --format json` (a baseline
// for `gate` that does not need the pulses). Summaries carry no series, so comparisons against
// them use the F-interval only.
// With settings.run, each summary gives the one run it names (select_run()).
std::vector<RunAnalysis> load_runs(const std::string& path, const AnalysisSettings& settings);

// `--run LABEL|N` on the runs of one saved summary `path`: N counts from 1; a label must name
// exactly one run. Throws core::UsageError naming the file when N is out of range, the label
// matches no run or several (labels may repeat or be empty: then only N picks), or N is also
// another run's label.
RunAnalysis select_run(std::vector<RunAnalysis> runs, std::string_view selector,
                       const std::string& path);

}  // namespace ppsbench::analysis
