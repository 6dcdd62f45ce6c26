// SPDX-License-Identifier: GPL-2.0-or-later
// Reading the files `calibrate` is given: each path's lateness against its reference.
#include <fmt/format.h>
#include <algorithm>

#include "ppsbench/analysis/calibration.hpp"
#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::analysis {

namespace {

[[noreturn]] void no_reference(const store::CaptureFile& file) {
    if (file.run_meta.dual) {
        // A two-source run without a reference, or the reference's own file.
        throw core::InputError(fmt::format(
            "{}: its path ({}) was not measured against a reference{}; calibrate the PPS path's "
            "file of a run with a reference ('ppsbench run --source pps:/dev/pps0 --source "
            "poll:gpiochip0:18', or ptp:/dev/ptp0)",
            file.path, file.run_meta.source,
            fmt::format(" (its peer {} is {})", file.run_meta.dual->peer_file,
                        file.run_meta.dual->peer_source)));
    }
    throw core::InputError(fmt::format(
        "{}: a one-path capture has no reference to measure its lateness against; capture "
        "the PPS path with a reference: 'ppsbench run --source pps:/dev/pps0 --source "
        "poll:gpiochip0:18' (or ptp:/dev/ptp0), then calibrate the PPS path's file",
        file.path));
}

void append(Lateness& all, Lateness&& part) {
    all.edge_ns.insert(all.edge_ns.end(), part.edge_ns.begin(), part.edge_ns.end());
    all.late_ns.insert(all.late_ns.end(), part.late_ns.begin(), part.late_ns.end());
    all.unpaired += part.unpaired;
    all.reference_uncertainty_ns =
        std::max(all.reference_uncertainty_ns, part.reference_uncertainty_ns);
}

}  // namespace

CalibrationRun load_calibration_run(const std::vector<std::string>& paths, core::Edge edge) {
    CalibrationRun run;
    for (const auto& path : paths) {
        const store::CaptureFile file = store::read_capture_file(path);
        auto lateness = reference_lateness(file, edge);
        if (!lateness) {
            no_reference(file);
        }
        if (run.inputs.empty()) {
            run.label = run_label(file.run_meta, file.path);
            run.lateness.reference = lateness->reference;
            const std::string_view source = file.run_meta.source;
            if (source.starts_with("pps:")) {
                run.pps_device = std::string(source.substr(4));
            }
        } else if (lateness->reference != run.lateness.reference) {
            throw core::InputError(fmt::format(
                "{}: measured against {}, but {} against {}: calibrate one reference's runs "
                "at a time",
                path, lateness->reference, run.inputs.front(), run.lateness.reference));
        }
        run.simulated = run.simulated || file.simulated();
        if (file.run_meta.capture_process && file.run_meta.capture_process->cpu_dma_latency_us) {
            run.cpu_dma_latency_us = std::max(run.cpu_dma_latency_us.value_or(0),
                                              *file.run_meta.capture_process->cpu_dma_latency_us);
        }
        append(run.lateness, std::move(*lateness));
        run.inputs.push_back(path);
    }
    return run;
}

}  // namespace ppsbench::analysis
