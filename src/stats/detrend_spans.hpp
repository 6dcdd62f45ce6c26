// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the detrend stage on plain spans, for the tests that check it against numpy.
// Production reaches the same code through analyze() (estimate_period, PulseIndex and
// detrend_series in train_detail.hpp and detrend_detail.hpp); these front doors only adapt
// spans to it.

#include <cstdint>
#include <span>
#include <vector>

#include "ppsbench/stats/detrend.hpp"

namespace ppsbench::stats {

// The period to count pulses with: the median interval between consecutive timestamps that lie
// within ±50 % of the nominal period, or the nominal period when there are none. A monotonic
// clock can run tens of ppm off; over a month that is minutes, so pulses must be counted with
// the clock's own period, not the nominal one.
double estimate_period_ns(std::span<const std::int64_t> timestamps_ns, std::int64_t period_ns);

// Pulse index of every timestamp (the first is 0), counted from the intervals:
// k_i = k_{i−1} + round((t_i − t_{i−1}) / period). A missed pulse advances the index by two, so
// it leaves a hole in the index instead of bending a fit. Timestamps must be in time order.
std::vector<std::int64_t> pulse_indices(std::span<const std::int64_t> timestamps_ns,
                                        double period_ns);

// Fits `values_ns` (a phase series: anything equal to the timestamps minus a linear function
// of the index, e.g. phase offsets) against `index` with degree 1 or 2, and returns residuals.
// With no more points than coefficients every residual is 0 (the fit is exact).
Detrended detrend(std::span<const std::int64_t> index, std::span<const double> values_ns,
                  int degree);

// The same directly on timestamps: fits t against the pulse index. It first subtracts
// t_0 + k·period in int64 (exact at 2^62 ns), so the doubles only carry the small remainder.
Detrended detrend_timestamps(std::span<const std::int64_t> timestamps_ns, std::int64_t period_ns,
                             int degree);

}  // namespace ppsbench::stats
