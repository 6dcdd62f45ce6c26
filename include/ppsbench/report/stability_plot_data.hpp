#pragma once

#include <vector>

#include "ppsbench/render/stability_plot.hpp"
#include "ppsbench/report/run_analysis.hpp"

namespace ppsbench::report {

// The ADEV, MDEV and TDEV curves of each run, as the analysis computed them (octave taus of the
// phase series). A run too short for any tau gets an empty curve.
render::StabilityPlot make_stability_plot(const std::vector<RunAnalysis>& runs);

}  // namespace ppsbench::report
