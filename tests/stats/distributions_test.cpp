// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/distributions.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "ppsbench/stats/confidence.hpp"

namespace ppsbench::stats {
namespace {

// No scipy here: every expected value is a closed form or a classical table value.

TEST(NormalQuantile, KnownValues) {
    EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-14);
    EXPECT_NEAR(normal_quantile(0.5), 0.0, 1e-15);
    EXPECT_NEAR(normal_quantile(0.001), -3.090232306167813, 1e-13);
    EXPECT_NEAR(normal_quantile(1e-10), -6.361340902404056, 1e-11);
}

// χ² with 2 dof is exponential: quantile −2·ln(1 − p).
TEST(ChiSquareQuantile, TwoDofIsExponential) {
    for (double p : {1e-6, 0.025, 0.5, 0.975, 0.999999}) {
        const double expected = -2.0 * std::log1p(-p);
        EXPECT_NEAR(chi_square_quantile(p, 2.0), expected, 1e-12 * expected) << p;
    }
}

// χ² with 1 dof is a squared normal: quantile Φ⁻¹((1 + p)/2)².
TEST(ChiSquareQuantile, OneDofIsASquaredNormal) {
    EXPECT_NEAR(chi_square_quantile(0.95, 1.0), 3.841458820694124, 1e-12);
    EXPECT_NEAR(chi_square_quantile(0.025, 1.0), std::pow(normal_quantile(0.5125), 2), 1e-14);
}

// For even dof 2j the CDF is 1 − e^(−x/2) Σ_{i<j} (x/2)^i / i!: an independent check at any
// size, including the thousands of dof a long run has.
double even_dof_cdf(double x, int dof) {
    double term = 1.0;
    double sum = 0.0;
    for (int i = 0; i < dof / 2; ++i) {
        sum += term;
        term *= (x / 2.0) / (i + 1);
    }
    return 1.0 - std::exp(-x / 2.0) * sum;
}

TEST(ChiSquareQuantile, EvenDofAgreeWithTheClosedFormCdf) {
    for (int dof : {4, 10, 30, 100, 500}) {
        for (double p : {0.025, 0.5, 0.975}) {
            const double x = chi_square_quantile(p, dof);
            EXPECT_NEAR(even_dof_cdf(x, dof), p, 1e-11) << "dof " << dof << " p " << p;
        }
    }
}

TEST(ChiSquareQuantile, TableValues) {
    // Standard tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4), 3 decimals.
    EXPECT_NEAR(chi_square_quantile(0.025, 10), 3.247, 5e-4);
    EXPECT_NEAR(chi_square_quantile(0.975, 10), 20.483, 5e-4);
    EXPECT_NEAR(chi_square_quantile(0.025, 100), 74.222, 5e-4);
    EXPECT_NEAR(chi_square_quantile(0.975, 100), 129.561, 5e-4);
}

TEST(ChiSquareQuantile, MillionsOfDofStayNormal) {
    // For huge ν, χ² ≈ ν + z·sqrt(2ν) to within a fraction of a unit.
    const double nu = 2.6e6;
    EXPECT_NEAR(chi_square_quantile(0.975, nu), nu + 1.959963984540054 * std::sqrt(2 * nu), 2.0);
    EXPECT_NEAR(regularized_gamma_p(nu / 2, chi_square_quantile(0.025, nu) / 2), 0.025, 1e-9);
}

// F(2, d2) has CDF 1 − (1 + 2f/d2)^(−d2/2); F(d1, 2) is 1/F(2, d1) flipped.
TEST(FQuantile, ClosedFormsForTwoDof) {
    for (double d2 : {3.0, 10.0, 57.0}) {
        for (double p : {0.025, 0.5, 0.975}) {
            const double expected = d2 / 2.0 * (std::pow(1.0 - p, -2.0 / d2) - 1.0);
            EXPECT_NEAR(f_quantile(p, 2.0, d2), expected, 1e-10 * expected) << d2 << " " << p;
            EXPECT_NEAR(f_quantile(p, d2, 2.0), 1.0 / f_quantile(1.0 - p, 2.0, d2),
                        1e-10 * expected);
        }
    }
}

TEST(FQuantile, TableValues) {
    EXPECT_NEAR(f_quantile(0.975, 10, 10), 3.7168, 5e-5);
    EXPECT_NEAR(f_quantile(0.95, 5, 10), 3.3258, 5e-5);
    EXPECT_NEAR(f_quantile(0.95, 1, 10), 4.9646, 5e-5);  // = t_{0.975, 10}² = 2.228139²
}

TEST(StddevInterval, ContainsTheEstimateAndNarrowsWithN) {
    const Interval small = stddev_interval(100.0, 10);
    EXPECT_NEAR(small.lo, 100.0 * std::sqrt(9 / 19.0228), 0.01);  // χ²_{0.975}(9) = 19.023
    EXPECT_NEAR(small.hi, 100.0 * std::sqrt(9 / 2.7004), 0.01);   // χ²_{0.025}(9) = 2.700
    const Interval large = stddev_interval(100.0, 2'600'000);
    EXPECT_LT(large.hi - large.lo, 0.2);
    EXPECT_TRUE(large.contains(100.0));
    EXPECT_TRUE(std::isnan(stddev_interval(100.0, 1).lo));
}

}  // namespace
}  // namespace ppsbench::stats
