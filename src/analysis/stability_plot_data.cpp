// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/stability_plot_data.hpp"

namespace ppsbench::analysis {

StabilityPlot make_stability_plot(const std::vector<RunAnalysis>& runs) {
    StabilityPlot plot;
    for (const auto& run : runs) {
        StabilityCurve curve;
        curve.label = run.simulated ? run.label + " (simulated)" : run.label;
        plot.simulated = plot.simulated || run.simulated;
        if (const auto& stability = run.stats.stability) {
            curve.tau_s = stability->tau_s;
            curve.adev = stability->adev;
            curve.mdev = stability->mdev;
            curve.tdev_s = stability->tdev_s;
        }
        plot.runs.push_back(std::move(curve));
    }
    return plot;
}

}  // namespace ppsbench::analysis
