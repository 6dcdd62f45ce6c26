// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/distributions.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

namespace ppsbench::stats {

namespace {

constexpr double epsilon = std::numeric_limits<double>::epsilon();
constexpr double tiny = 1e-300;
// Continued fractions and series converge in O(sqrt(a)) steps; a 10-million-sample run has
// a ≈ 5e6, so allow far more than the textbook 100 iterations.
constexpr int max_iterations = 1'000'000;

// Series for P(a, x), good for x < a + 1.
double gamma_p_series(double a, double x) {
    double term = 1.0 / a;
    double sum = term;
    for (int n = 1; n < max_iterations; ++n) {
        term *= x / (a + n);
        sum += term;
        if (std::abs(term) < std::abs(sum) * epsilon) {
            break;
        }
    }
    return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

// Continued fraction for Q(a, x) = 1 − P(a, x) (modified Lentz), good for x >= a + 1.
double gamma_q_fraction(double a, double x) {
    double b = x + 1.0 - a;
    double c = 1.0 / tiny;
    double d = 1.0 / b;
    double h = d;
    for (int i = 1; i < max_iterations; ++i) {
        const double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (std::abs(d) < tiny) {
            d = tiny;
        }
        c = b + an / c;
        if (std::abs(c) < tiny) {
            c = tiny;
        }
        d = 1.0 / d;
        const double delta = d * c;
        h *= delta;
        if (std::abs(delta - 1.0) < epsilon) {
            break;
        }
    }
    return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

// Continued fraction for the incomplete beta function (modified Lentz).
double beta_fraction(double x, double a, double b) {
    const double qab = a + b;
    const double qap = a + 1.0;
    const double qam = a - 1.0;
    double c = 1.0;
    double d = 1.0 - qab * x / qap;
    if (std::abs(d) < tiny) {
        d = tiny;
    }
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m < max_iterations; ++m) {
        const double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        d = std::abs(d) < tiny ? tiny : d;
        c = 1.0 + aa / c;
        c = std::abs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        d = std::abs(d) < tiny ? tiny : d;
        c = 1.0 + aa / c;
        c = std::abs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        const double delta = d * c;
        h *= delta;
        if (std::abs(delta - 1.0) < epsilon) {
            break;
        }
    }
    return h;
}

double log_beta(double a, double b) {
    return std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b);
}

// Solves cdf(x) = p on [lo, hi] by Newton steps on the density, falling back to bisection
// whenever a step would leave the bracket, so convergence is guaranteed even where Newton
// misbehaves (heavy tails, tiny dof).
double invert(const std::function<double(double)>& cdf, const std::function<double(double)>& pdf,
              double p, double x, double lo, double hi) {
    for (int i = 0; i < 200; ++i) {
        const double f = cdf(x) - p;
        if (f == 0.0) {
            return x;
        }
        if (f < 0.0) {
            lo = x;
        } else {
            hi = x;
        }
        const double density = pdf(x);
        double next = density > 0.0 ? x - f / density : NAN;
        if (!(next > lo && next < hi)) {
            next = std::isinf(hi) ? std::max(2.0 * x, 1.0) : 0.5 * (lo + hi);
        }
        if (std::abs(next - x) <= 4.0 * epsilon * std::abs(x) ||
            (std::isfinite(hi) && hi - lo <= 4.0 * epsilon * hi)) {
            return next;
        }
        x = next;
    }
    return x;
}

}  // namespace

double normal_quantile(double p) {
    if (!(p > 0.0 && p < 1.0)) {
        return p == 0.0 ? -INFINITY : p == 1.0 ? INFINITY : NAN;
    }
    // Acklam's rational approximation (relative error 1.15e-9), then one Halley step on erfc,
    // which brings it to full double precision.
    static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                   -2.759285104469687e+02, 1.383577518672690e+02,
                                   -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                   -1.556989798598866e+02, 6.680131188771972e+01,
                                   -1.328068155288572e+01};
    static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                   -2.400758277161838e+00, -2.549732539343734e+00,
                                   4.374664141464968e+00,  2.938163982698783e+00};
    static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                   2.445134137142996e+00, 3.754408661907416e+00};
    constexpr double p_low = 0.02425;
    double x = 0;
    if (p < p_low) {
        const double q = std::sqrt(-2.0 * std::log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    } else if (p <= 1.0 - p_low) {
        const double q = p - 0.5;
        const double r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
    } else {
        const double q = std::sqrt(-2.0 * std::log1p(-p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    }
    const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
    const double u = e * std::sqrt(2.0 * std::numbers::pi) * std::exp(x * x / 2.0);
    return x - u / (1.0 + x * u / 2.0);
}

double regularized_gamma_p(double a, double x) {
    if (!(a > 0.0) || x < 0.0 || std::isnan(x)) {
        return NAN;
    }
    if (x == 0.0) {
        return 0.0;
    }
    if (std::isinf(x)) {
        return 1.0;
    }
    return x < a + 1.0 ? gamma_p_series(a, x) : 1.0 - gamma_q_fraction(a, x);
}

double chi_square_quantile(double p, double dof) {
    if (!(dof > 0.0) || !(p >= 0.0 && p <= 1.0)) {
        return NAN;
    }
    if (p == 0.0) {
        return 0.0;
    }
    if (p == 1.0) {
        return INFINITY;
    }
    const double a = dof / 2.0;
    // Wilson–Hilferty: (χ²/ν)^(1/3) is nearly normal. Good to a few digits for ν >= 3; for small
    // ν and small p use the lower-tail power law P ≈ (x/2)^a / Γ(a + 1) instead.
    const double z = normal_quantile(p);
    const double h = 2.0 / (9.0 * dof);
    double x = dof * std::pow(std::max(1.0 - h + z * std::sqrt(h), 0.0), 3.0);
    if (x <= 0.0 || dof < 3.0) {
        const double lower_tail = 2.0 * std::exp((std::log(p) + std::lgamma(a + 1.0)) / a);
        x = x > 0.0 ? std::min(x, lower_tail) : lower_tail;
    }
    const double log_norm = std::lgamma(a) + a * std::log(2.0);
    auto cdf = [a](double v) { return regularized_gamma_p(a, v / 2.0); };
    auto pdf = [a, log_norm](double v) {
        return v > 0.0 ? std::exp((a - 1.0) * std::log(v) - v / 2.0 - log_norm) : 0.0;
    };
    return invert(cdf, pdf, p, x, 0.0, INFINITY);
}

double regularized_beta(double x, double a, double b) {
    if (!(a > 0.0 && b > 0.0) || !(x >= 0.0 && x <= 1.0)) {
        return NAN;
    }
    if (x == 0.0 || x == 1.0) {
        return x;
    }
    const double front = std::exp(a * std::log(x) + b * std::log1p(-x) - log_beta(a, b));
    // The continued fraction converges fast only on the side of the mean where x < (a+1)/(a+b+2);
    // use the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) on the other side.
    if (x < (a + 1.0) / (a + b + 2.0)) {
        return front * beta_fraction(x, a, b) / a;
    }
    return 1.0 - front * beta_fraction(1.0 - x, b, a) / b;
}

double f_quantile(double p, double d1, double d2) {
    if (!(d1 > 0.0 && d2 > 0.0) || !(p >= 0.0 && p <= 1.0)) {
        return NAN;
    }
    if (p == 0.0) {
        return 0.0;
    }
    if (p == 1.0) {
        return INFINITY;
    }
    // F = (d2/d1)·u/(1 − u) with u ~ Beta(d1/2, d2/2): invert the beta on [0, 1].
    const double a = d1 / 2.0;
    const double b = d2 / 2.0;
    const double lb = log_beta(a, b);
    auto cdf = [a, b](double u) { return regularized_beta(u, a, b); };
    auto pdf = [a, b, lb](double u) {
        return u > 0.0 && u < 1.0
                   ? std::exp((a - 1.0) * std::log(u) + (b - 1.0) * std::log1p(-u) - lb)
                   : 0.0;
    };
    const double u = invert(cdf, pdf, p, a / (a + b), 0.0, 1.0);
    return (d2 / d1) * u / (1.0 - u);
}

}  // namespace ppsbench::stats
