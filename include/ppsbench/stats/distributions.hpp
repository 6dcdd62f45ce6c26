// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

namespace ppsbench::stats {

// The few distribution functions the confidence intervals need, implemented here so that no
// statistics library is a dependency and results do not vary between platforms. Accuracy is
// close to double precision (checked against closed forms in tests/stats/distributions_test.cpp).

// Standard normal quantile Φ⁻¹(p), p in (0, 1).
double normal_quantile(double p);

// Regularized lower incomplete gamma function P(a, x) = γ(a, x) / Γ(a).
double regularized_gamma_p(double a, double x);

// Quantile of the chi-square distribution with `dof` degrees of freedom: the x with
// P(dof/2, x/2) = p. Wilson–Hilferty start, then safeguarded Newton on P.
double chi_square_quantile(double p, double dof);

// Regularized incomplete beta function I_x(a, b).
double regularized_beta(double x, double a, double b);

// Quantile of Snedecor's F distribution with (d1, d2) degrees of freedom.
double f_quantile(double p, double d1, double d2);

}  // namespace ppsbench::stats
