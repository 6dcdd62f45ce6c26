// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <ostream>

#include "ppsbench/analysis/stability_plot_data.hpp"

namespace ppsbench::render {

// A self-contained SVG (no scripts, no external fonts) in the form time-and-frequency people
// know from Stable32 and allantools: three log-log panels, ADEV, MDEV and TDEV against τ, one
// line per run, and in each panel the slopes of the common noise types (white PM, flicker PM,
// white FM) drawn faintly through the first run's first point, so a curve's slope names its
// noise. Points that are not positive and finite are left out.
void write_stability_svg(const analysis::StabilityPlot& plot, std::ostream& out);

}  // namespace ppsbench::render
