// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: numpy-linear quantiles by selection over a scratch buffer, for the test that pins
// the quantile rule (position(), lerp()) against numpy's own worked example. Production takes
// quantiles from quantile_sorted() or, for a whole series, from summarize()'s exact selection,
// both on the same rule.

#include <span>
#include <vector>

namespace ppsbench::stats {

// Reorders `values`. `qs` must be ascending and within [0, 1]. With no values every result is
// NaN.
std::vector<double> quantiles_in_place(std::span<double> values, std::span<const double> qs);
double quantile_in_place(std::span<double> values, double q);

}  // namespace ppsbench::stats
