#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ppsbench/analysis/bias.hpp"
#include "ppsbench/chrony/summary.hpp"
#include "ppsbench/stats/analyze.hpp"
#include "ppsbench/store/capture_file.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::analysis {

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
    // Problems met while reading or analysing (a torn last line, no end record), shown once.
    std::vector<std::string> warnings;
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
};

// One run: the edge `edge`, by default the assert edge (the clear edge when there is none).
RunAnalysis analyze_capture(const store::CaptureFile& file, const AnalysisSettings& settings,
                            std::optional<core::Edge> edge = std::nullopt);

// One run per analysed edge (settings.edges, else every edge the file holds); a run of a file
// holding both edges is labelled "LABEL (assert)" / "LABEL (clear)". Throws core::InputError
// when the file holds none of the edges asked for.
std::vector<RunAnalysis> analyze_edges(const store::CaptureFile& file,
                                       const AnalysisSettings& settings);

// Reads FILE: a capture file, or a JSON summary saved from `report --format json` (a baseline
// for `gate` that does not need the pulses). Summaries carry no series, so comparisons against
// them use the F-interval only.
std::vector<RunAnalysis> load_runs(const std::string& path, const AnalysisSettings& settings);

}  // namespace ppsbench::analysis
