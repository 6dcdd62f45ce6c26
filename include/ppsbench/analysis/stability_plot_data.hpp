// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>
#include <vector>

#include "ppsbench/analysis/run_analysis.hpp"

namespace ppsbench::analysis {

// One run's Allan-family figures at its analysis taus (octaves of the pulse period).
struct StabilityCurve {
    std::string label;  // "(simulated)" included where it applies
    std::vector<double> tau_s;
    std::vector<double> adev;    // dimensionless
    std::vector<double> mdev;    // dimensionless
    std::vector<double> tdev_s;  // seconds
};

struct StabilityPlot {
    std::string title = "Stability of the PPS phase by run";
    bool simulated = false;
    std::vector<StabilityCurve> runs;
};

// The ADEV, MDEV and TDEV curves of each run, as the analysis computed them. A run too short
// for any tau gets an empty curve.
StabilityPlot make_stability_plot(const std::vector<RunAnalysis>& runs);

}  // namespace ppsbench::analysis
