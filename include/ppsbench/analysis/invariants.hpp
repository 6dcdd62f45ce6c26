// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What every run's figures must satisfy by their own definitions (docs/methodology.md §8),
// checked before anything is printed, written or gated: a run that breaks one is refused, so a
// figure that contradicts itself never reaches a table, a file or a verdict.

#include <string>
#include <vector>

#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/stats/analyze.hpp"

namespace ppsbench::analysis {

struct BrokenInvariant {
    std::string name;    // "offset window", "order", "σ within p2p", ...
    std::string detail;  // the figures that break it
};

// Every invariant the statistics break, in the order of methodology §8; empty when all hold.
// Figures a saved summary does not hold (NaN) are not judged, except that a series with values
// must have a mean, a minimum and a maximum.
std::vector<BrokenInvariant> broken_invariants(const stats::RunStatistics& stats);

// The one check every RunAnalysis passes through (computed from a capture, or read back from a
// saved summary): throws core::InputError naming `read_from` (the capture or the summary file
// read, not the capture a summary names inside), the run, the first invariant broken and what
// to do.
void require_invariants(const RunAnalysis& run, const std::string& read_from);

}  // namespace ppsbench::analysis
