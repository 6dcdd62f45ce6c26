// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <span>
#include <vector>

namespace ppsbench::stats {

// Quantiles with numpy's default method ("linear", Hyndman & Fan type 7): the q-quantile of n
// sorted values is at the virtual position h = q·(n − 1), interpolated linearly between the
// values at floor(h) and floor(h) + 1. Matching numpy matters: people check our numbers with it.
//
// On sorted values (no reordering, O(1)). With no values the result is NaN. (A series too long
// to sort is summarised by summarize(), which selects its order statistics exactly.)
double quantile_sorted(std::span<const double> sorted, double q);

// The functions below select rather than sort (std::nth_element), so they reorder `values`:
// pass a scratch copy.

// numpy.median: the mean of the two middle values for an even count.
double median_in_place(std::span<double> values);

// 1.4826 · median(|x − median(x)|): the MAD scaled so that it estimates σ for normal data, but
// unmoved by a few wild values. Reorders `values`.
double robust_stddev_in_place(std::span<double> values, double median);

// Up to `max_count` of the values, taken at an even stride. For auxiliary estimates (a centre to
// unwrap around, a noise scale for a detector) where the exact median of millions of values
// would cost a full selection and buy nothing.
std::vector<double> even_sample(std::span<const double> values, std::size_t max_count = 65536);

// The factor that makes the MAD a consistent estimator of σ for normal data (1 / Φ⁻¹(3/4)).
inline constexpr double mad_to_sigma = 1.4826;

}  // namespace ppsbench::stats
