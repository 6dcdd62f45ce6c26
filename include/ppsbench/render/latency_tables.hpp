// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>
#include <vector>

#include "ppsbench/latency/latency_summary.hpp"
#include "ppsbench/latency/paired.hpp"
#include "ppsbench/render/table.hpp"

namespace ppsbench::render {

// Two rows per latency run, one per distribution (drive→ts, ts→wake): edges, unseen,
// p50/p90/p99/max/mean/σ, and the CPU idle fraction.
Table latency_table(const std::vector<latency::LatencySummary>& runs);

// A text histogram, one line per bin ("  10.0 µs … 20.0 µs   412 ████"), with the under- and
// overflow buckets when they hold anything.
std::vector<std::string> histogram_lines(const stats::Histogram& histogram,
                                         std::size_t bar_width = 40);

// Per-path rows (pulses, unpaired, jitter) and the difference row (p50/p90/p99/max/mean/σ,
// share of edges where B is later), with footnotes on the time base.
Table dual_table(const latency::DualSummary& dual);

}  // namespace ppsbench::render
