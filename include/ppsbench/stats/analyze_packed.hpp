// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "ppsbench/core/packed_pulses.hpp"
#include "ppsbench/stats/analyze.hpp"

namespace ppsbench::stats {

// analyze() on pulses packed as the capture reader keeps them for analysis (8 bytes a pulse
// instead of 24: issue 26), with identical figures and errors. analyze() on a span of Pulse
// packs them and calls this.
RunStatistics analyze_packed(const core::PackedPulses& pulses, const AnalysisOptions& options = {});

}  // namespace ppsbench::stats
