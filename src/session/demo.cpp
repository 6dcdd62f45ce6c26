// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/demo.hpp"

#include <fmt/format.h>

#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/analysis/reference_pairing.hpp"
#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/render/run_tables.hpp"
#include "ppsbench/session/run_session.hpp"

namespace ppsbench::session {

namespace {
class VectorSink final : public core::PulseSink {
  public:
    explicit VectorSink(std::vector<core::Pulse>& pulses) : pulses_(pulses) {}
    void write(std::span<const core::Pulse> pulses) override {
        pulses_.insert(pulses_.end(), pulses.begin(), pulses.end());
    }

  private:
    std::vector<core::Pulse>& pulses_;
};
}  // namespace

std::vector<DemoConfiguration> demo_configurations() {
    // The published figures: the write-up's table (README, docs/sim-models.md).
    return {{"Stock kernel", "sim:hardirq", 0, {2134, 11'000, 440}},
            {"PREEMPT_RT", "sim:threaded", 1, {6947, 38'000, 2468}},
            {"PREEMPT_RT + IRQF_NO_THREAD", "sim:nothread", 2, {2568, std::nullopt, 199}}};
}

store::CaptureFile capture_in_memory(const DemoConfiguration& configuration,
                                     const capture::SourceOptions& options,
                                     core::Duration duration) {
    auto seeded = options;
    seeded.seed = options.seed + configuration.seed_offset;
    auto source = capture::open_source(configuration.source_spec, seeded);
    store::CaptureFile file;
    file.path = configuration.source_spec;
    RunOptions run;
    run.label = configuration.label;
    file.set_meta(make_run_metadata(run, source->info()));
    VectorSink sink(file.pulses);
    capture::CaptureLimits limits;
    limits.duration = duration;
    const auto progress = capture::run_capture(*source, sink, limits, nullptr);
    file.notes.push_back({"end", store::to_json(end_record(progress, 0, {})), file.pulses.size()});
    return file;
}

render::Table published_beside_simulated(const std::vector<DemoConfiguration>& configurations,
                                         const std::vector<analysis::RunAnalysis>& runs) {
    render::Table table;
    table.title = "The write-up's published figures beside the demo's";
    table.columns = {{"", "configuration", render::Quantity::text},
                     {"σ published", "published_stddev_ns", render::Quantity::time_ns},
                     {"σ SIMULATED", "simulated_stddev_ns", render::Quantity::time_ns},
                     // As published, "11 µs": a unit's decimals would add digits it never gave.
                     {"p-p published", "published_peak_to_peak", render::Quantity::text},
                     {"p-p SIMULATED", "simulated_peak_to_peak_ns", render::Quantity::time_ns},
                     {"chrony RMS offset published", "published_chrony_rms_offset_ns",
                      render::Quantity::time_ns}};
    for (std::size_t i = 0; i < configurations.size() && i < runs.size(); ++i) {
        const auto& published = configurations[i].published;
        const auto& simulated = runs[i].stats.headline();
        table.rows.push_back(
            {render::Cell::of_text(configurations[i].label), render::Cell::of(published.sigma_ns),
             render::Cell::of(simulated.stddev),
             render::Cell::of_text(published.peak_to_peak_ns
                                       ? fmt::format("{:g} µs", *published.peak_to_peak_ns / 1e3)
                                       : "—"),
             render::Cell::of(simulated.peak_to_peak),
             render::Cell::of(published.chrony_rms_offset_ns)});
    }
    table.footnotes = {
        "published: the write-up's figures, measured on hardware (a Raspberry Pi time server, "
        "GPS PPS on pps-gpio, about an hour each); — where it gave none.",
        "SIMULATED: this demo's runs of ppsbench's sim: models, calibrated to those figures "
        "(docs/sim-models.md); not a measurement of any kernel.",
        "chrony's RMS offset is measured with a real chronyd, never simulated: `ppsbench run "
        "--source pps:/dev/pps0 --chrony on` samples it beside the pulses."};
    return table;
}

DemoBiasRun demo_bias_run() {
    auto path = demo_configurations().at(1);  // PREEMPT_RT: the write-up's threaded handler
    path.label = "PREEMPT_RT, 12 µs late";
    path.source_spec += ",late=12us";
    return {path, "sim:reference"};
}

analysis::RunAnalysis simulated_bias_run(const DemoBiasRun& run,
                                         const capture::SourceOptions& options,
                                         core::Duration duration) {
    const auto path = capture_in_memory(run.path, options, duration);
    const DemoConfiguration reference{
        run.reference_spec, run.reference_spec, run.path.seed_offset, {}};
    const auto edges = capture_in_memory(reference, options, duration);
    auto analysed = analysis::analyze_capture(path, {});
    analysed.bias = analysis::bias_of(analysis::lateness_against(path, edges, run.reference_spec));
    return analysed;
}

render::Table simulated_bias_table(const DemoBiasRun& run, const analysis::RunAnalysis& analysed) {
    auto table =
        render::runs_table({analysed}, analysis::parse_metrics("bias_mean,bias_median,bias_sigma"));
    table.title = fmt::format("Bias: a SIMULATED two-path run, {} against {}", run.path.source_spec,
                              run.reference_spec);
    table.footnotes.push_back(
        "bias = path − reference per paired edge. SIMULATED: late=12us adds a constant 12 µs "
        "that σ cannot see; sim:reference's edges fall exactly on the second and reveal it. The "
        "threaded model's delay is skewed, so the median is below the mean (docs/latency.md). "
        "On hardware: ppsbench run --source pps:/dev/pps0 --source ptp:/dev/ptp0 (or poll:…).");
    return table;
}

}  // namespace ppsbench::session
