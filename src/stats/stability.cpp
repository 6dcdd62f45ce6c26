#include "ppsbench/stats/stability.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ppsbench::stats {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

double value_or_zero(double x) {
    return std::isnan(x) ? 0.0 : x;
}

double adev_one(std::span<const double> x, double tau0, std::size_t m) {
    const std::size_t n = x.size();
    if (m == 0 || n < 2 * m + 1) {
        return nan;
    }
    long double sum = 0;
    std::size_t terms = 0;
    for (std::size_t i = 0; i + 2 * m < n; ++i) {
        const double d = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
        if (!std::isnan(d)) {
            sum += static_cast<long double>(d) * d;
            ++terms;
        }
    }
    if (terms == 0) {
        return nan;
    }
    const double tau = static_cast<double>(m) * tau0;
    return std::sqrt(static_cast<double>(sum / terms) / (2.0 * tau * tau));
}

double mdev_one(std::span<const double> x, double tau0, std::size_t m) {
    const std::size_t n = x.size();
    if (m == 0 || n < 3 * m) {
        return nan;
    }
    // inner_j = Σ_{i=j}^{j+m−1} (x_{i+2m} − 2x_{i+m} + x_i); going from j to j+1 adds the term at
    // i = j+m and drops the one at i = j, i.e. inner += x_{j+3m} − 3x_{j+2m} + 3x_{j+m} − x_j.
    // Missing samples count as zero inside the running sum (keeping the update exact) and a
    // running count of them in the 3m-sample span decides whether the term is used.
    // long double keeps the running sum's rounding far below the second differences.
    auto v = [&](std::size_t i) { return static_cast<long double>(value_or_zero(x[i])); };
    auto missing = [&](std::size_t i) { return std::isnan(x[i]) ? 1 : 0; };
    long double inner = 0;
    std::size_t missing_in_span = 0;
    for (std::size_t i = 0; i < m; ++i) {
        inner += v(i + 2 * m) - 2 * v(i + m) + v(i);
    }
    for (std::size_t i = 0; i < 3 * m; ++i) {
        missing_in_span += missing(i);
    }
    long double sum = 0;
    std::size_t terms = 0;
    for (std::size_t j = 0;; ++j) {
        if (missing_in_span == 0) {
            sum += inner * inner;
            ++terms;
        }
        if (j + 3 * m >= n) {
            break;
        }
        inner += v(j + 3 * m) - 3 * v(j + 2 * m) + 3 * v(j + m) - v(j);
        missing_in_span += missing(j + 3 * m);
        missing_in_span -= missing(j);
    }
    if (terms == 0) {
        return nan;
    }
    const double tau = static_cast<double>(m) * tau0;
    const auto md = static_cast<double>(m);
    return std::sqrt(static_cast<double>(sum / terms) / (2.0 * md * md * tau * tau));
}

}  // namespace

std::vector<double> overlapping_adev(std::span<const double> phase_s, double tau0_s,
                                     std::span<const std::size_t> factors) {
    std::vector<double> out;
    out.reserve(factors.size());
    for (std::size_t m : factors) {
        out.push_back(adev_one(phase_s, tau0_s, m));
    }
    return out;
}

std::vector<double> modified_adev(std::span<const double> phase_s, double tau0_s,
                                  std::span<const std::size_t> factors) {
    std::vector<double> out;
    out.reserve(factors.size());
    for (std::size_t m : factors) {
        out.push_back(mdev_one(phase_s, tau0_s, m));
    }
    return out;
}

std::vector<double> time_deviation(std::span<const double> phase_s, double tau0_s,
                                   std::span<const std::size_t> factors) {
    std::vector<double> out = modified_adev(phase_s, tau0_s, factors);
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i] *= static_cast<double>(factors[i]) * tau0_s / std::sqrt(3.0);
    }
    return out;
}

std::vector<double> mtie(std::span<const double> phase_s, std::span<const std::size_t> factors) {
    const std::size_t n = phase_s.size();
    std::vector<double> result(factors.size(), nan);
    // Doubling tables: after k doublings, high[i] / low[i] hold the max / min of x[i, i + 2^k).
    // A window of w samples (2^k <= w < 2^(k+1)) is the union of the two 2^k-spans starting at
    // i and at i + w − 2^k, so its extremes are O(1) per position. Taus are visited in
    // ascending order so the tables only ever grow. Missing samples are ±inf, never extremes.
    std::vector<std::size_t> order(factors.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return factors[a] < factors[b]; });
    std::vector<double> high(n);
    std::vector<double> low(n);
    for (std::size_t i = 0; i < n; ++i) {
        const bool missing = std::isnan(phase_s[i]);
        high[i] = missing ? -INFINITY : phase_s[i];
        low[i] = missing ? INFINITY : phase_s[i];
    }
    std::size_t span = 1;
    for (std::size_t index : order) {
        const std::size_t width = factors[index] + 1;
        if (factors[index] == 0 || width > n) {
            continue;
        }
        while (2 * span <= width) {
            // In place and in increasing i: entry i + span is still the old level when read.
            for (std::size_t i = 0; i + 2 * span <= n; ++i) {
                high[i] = std::max(high[i], high[i + span]);
                low[i] = std::min(low[i], low[i + span]);
            }
            span *= 2;
        }
        const std::size_t shift = width - span;
        double best = -1.0;
        for (std::size_t i = 0; i + width <= n; ++i) {
            const double top = std::max(high[i], high[i + shift]);
            const double bottom = std::min(low[i], low[i + shift]);
            best = std::max(best, top - bottom);  // −inf when the window has no sample
        }
        result[index] = best >= 0.0 ? best : nan;
    }
    return result;
}

Stability compute_stability(std::span<const double> phase_s, double tau0_s,
                            std::span<const std::size_t> factors) {
    Stability s;
    s.tau0_s = tau0_s;
    s.factors.assign(factors.begin(), factors.end());
    for (std::size_t m : factors) {
        s.tau_s.push_back(static_cast<double>(m) * tau0_s);
    }
    s.adev = overlapping_adev(phase_s, tau0_s, factors);
    s.mdev = modified_adev(phase_s, tau0_s, factors);
    s.tdev_s = s.mdev;
    for (std::size_t i = 0; i < factors.size(); ++i) {
        s.tdev_s[i] *= s.tau_s[i] / std::sqrt(3.0);
    }
    s.mtie_s = mtie(phase_s, factors);
    s.missing_samples = static_cast<std::size_t>(
        std::count_if(phase_s.begin(), phase_s.end(), [](double v) { return std::isnan(v); }));
    return s;
}

Stability compute_stability(std::span<const double> phase_s, double tau0_s) {
    const auto factors = octave_factors(phase_s.size());
    return compute_stability(phase_s, tau0_s, factors);
}

std::vector<std::size_t> octave_factors(std::size_t samples) {
    std::vector<std::size_t> factors;
    if (samples < 5) {
        return factors;
    }
    for (std::size_t m = 1; m <= (samples - 1) / 4; m *= 2) {
        factors.push_back(m);
    }
    return factors;
}

}  // namespace ppsbench::stats
