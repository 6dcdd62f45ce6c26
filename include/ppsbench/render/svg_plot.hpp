// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <ostream>

#include "ppsbench/analysis/plot_data.hpp"

namespace ppsbench::render {

// A self-contained SVG (no scripts, no external fonts): histogram panel above, time series
// below, with titles, axis labels with units, and a legend.
void write_svg_plot(const analysis::Plot& plot, std::ostream& out);

}  // namespace ppsbench::render
