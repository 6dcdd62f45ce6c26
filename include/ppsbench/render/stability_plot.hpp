#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace ppsbench::render {

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

// A self-contained SVG (no scripts, no external fonts) in the form time-and-frequency people
// know from Stable32 and allantools: three log-log panels, ADEV, MDEV and TDEV against τ, one
// line per run, and in each panel the slopes of the common noise types (white PM, flicker PM,
// white FM) drawn faintly through the first run's first point, so a curve's slope names its
// noise. Points that are not positive and finite are left out.
void write_stability_svg(const StabilityPlot& plot, std::ostream& out);

}  // namespace ppsbench::render
