// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/render/table.hpp"
#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::session {

// What the write-up published for a configuration, measured on hardware (a Raspberry Pi time
// server with a GPS PPS on pps-gpio, about an hour): never computed by ppsbench.
struct PublishedFigures {
    double sigma_ns = 0;
    std::optional<double> peak_to_peak_ns;  // not published for every configuration
    // chronyd's RMS offset on that server: a real chronyd's figure, which no simulation has.
    double chrony_rms_offset_ns = 0;
};

// One configuration of the demo: a sim model, the row label it stands for, and the seed it
// takes after the first (--seed N gives N + seed_offset), so the demo's runs are the runs of
// examples/writeup/make.sh (seeds 1, 2, 3) and their figures agree.
struct DemoConfiguration {
    std::string label;
    std::string source_spec;
    std::uint64_t seed_offset = 0;
    PublishedFigures published;
};

// The write-up's three configurations: stock kernel, PREEMPT_RT (force-threaded pps-gpio
// handler), PREEMPT_RT with the handler marked IRQF_NO_THREAD. All simulated.
std::vector<DemoConfiguration> demo_configurations();

// Captures `duration` of pulses from a source into memory (no file), as `ppsbench run` would.
store::CaptureFile capture_in_memory(const DemoConfiguration& configuration,
                                     const capture::SourceOptions& options,
                                     core::Duration duration);

// The demo's figures beside the write-up's, per configuration: σ and peak-to-peak SIMULATED
// (`runs`, one per configuration, in order) and published, and the published chrony RMS offset,
// with footnotes saying which is which and that the RMS offset needs a real chronyd.
render::Table published_beside_simulated(const std::vector<DemoConfiguration>& configurations,
                                         const std::vector<analysis::RunAnalysis>& runs);

// The demo's one two-path run (issue 24): a path `late` late against sim:reference, whose
// edges fall exactly on the second, so the lateness the jitter table cannot see shows as bias.
// SIMULATED: `late` is the sim's late=D knob, not a kernel's delay.
struct DemoBiasRun {
    DemoConfiguration path;  // its seed_offset as the configurations', so N + seed_offset
    std::string reference_spec;
};

// The write-up's PREEMPT_RT model made 12 µs late ("sim:threaded,late=12us", the PREEMPT_RT
// configuration's seed), against "sim:reference".
DemoBiasRun demo_bias_run();

// Both paths captured in memory for `duration`, and the path's run with its bias against the
// reference: the figures `report` gives the PPS path's file of `ppsbench run --source PATH
// --source sim:reference` with the same seed and duration.
analysis::RunAnalysis simulated_bias_run(const DemoBiasRun& run,
                                         const capture::SourceOptions& options,
                                         core::Duration duration);

// The bias row: mean, median and σ of path − reference, the table titled and footnoted
// SIMULATED.
render::Table simulated_bias_table(const DemoBiasRun& run, const analysis::RunAnalysis& analysed);

}  // namespace ppsbench::session
