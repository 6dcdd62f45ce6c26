// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: detrend_series()'s two per-value steps for the usual degree-1 fit, in lanes
// (lanes.hpp). Each value goes through the very operations of the generic loop
// (detrend_detail.hpp: u = (k − centre)·(1/scale), the Legendre terms 1 and u, the model
// (0 + c₀·1) + c₁·u), and each running sum takes its terms in value order, so the fit and the
// residuals are the generic loop's to the bit (the detrended mean is rounding noise around 0:
// any other order of the sums would change it).

#include <cstddef>

namespace ppsbench::stats::detail {

// One block's sums of the normal equations but Σ1 (the block's count): Σv, Σu·v, Σu, Σu².
struct LinearSums {
    double rhs0 = 0;
    double rhs1 = 0;
    double gram01 = 0;
    double gram11 = 0;
};

// The terms of v[0, count), whose pulse indices are k0, k0 + 1, …, added in order.
void add_linear_terms(LinearSums& sums, const double* v, std::size_t count, double k0,
                      double centre, double inverse_scale);

// out[j] = v[j] − ((0 + c0·1) + c1·u_j), u_j = (k0 + j − centre)·inverse_scale, for j < count
// (out may be v).
void subtract_linear_model(const double* v, double* out, std::size_t count, double k0,
                           double centre, double inverse_scale, double c0, double c1);

}  // namespace ppsbench::stats::detail
