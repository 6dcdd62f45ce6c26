#include "ppsbench/stats/detrend.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <vector>

#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/quantile.hpp"

namespace ppsbench::stats {

namespace {

// P_0 … P_degree at u by the three-term recurrence (n+1)P_{n+1} = (2n+1)uP_n − nP_{n−1}.
template <typename T>
void legendre(T u, int degree, T* out) {
    out[0] = 1;
    if (degree >= 1) {
        out[1] = u;
    }
    for (int n = 1; n < degree; ++n) {
        out[n + 1] = ((2 * n + 1) * u * out[n] - n * out[n - 1]) / (n + 1);
    }
}

constexpr int max_degree = 2;

}  // namespace

double PolynomialFit::operator()(double index) const {
    long double p[max_degree + 1];
    const long double u = (static_cast<long double>(index) - center) / scale;
    legendre(u, degree, p);
    long double sum = 0;
    for (int j = 0; j <= degree; ++j) {
        sum += coefficients[static_cast<std::size_t>(j)] * p[j];
    }
    return static_cast<double>(sum);
}

double PolynomialFit::slope(double index) const {
    // Central difference of the polynomial is exact for degree <= 2.
    return ((*this)(index + 0.5) - (*this)(index - 0.5));
}

double estimate_period_ns(std::span<const std::int64_t> timestamps_ns, std::int64_t period_ns) {
    // The median of up to ~65536 evenly spread intervals: enough to count pulses by, and a
    // long run does not pay for a selection over millions of intervals.
    std::vector<double> intervals;
    const auto nominal = static_cast<double>(period_ns);
    const std::size_t stride = std::max<std::size_t>(1, timestamps_ns.size() / 65536);
    for (std::size_t i = 1; i < timestamps_ns.size(); i += stride) {
        const auto d = static_cast<double>(timestamps_ns[i] - timestamps_ns[i - 1]);
        if (d > 0.5 * nominal && d < 1.5 * nominal) {
            intervals.push_back(d);
        }
    }
    return intervals.empty() ? nominal : median_in_place(intervals);
}

std::vector<std::int64_t> pulse_indices(std::span<const std::int64_t> timestamps_ns,
                                        double period_ns) {
    std::vector<std::int64_t> index(timestamps_ns.size());
    for (std::size_t i = 1; i < timestamps_ns.size(); ++i) {
        const auto d = static_cast<double>(timestamps_ns[i] - timestamps_ns[i - 1]);
        index[i] = index[i - 1] + std::llround(d / period_ns);
    }
    return index;
}

Detrended detrend(std::span<const std::int64_t> index, std::span<const double> values_ns,
                  int degree) {
    if (degree < 1 || degree > max_degree) {
        throw core::UsageError("detrend degree must be 1 or 2, not " + std::to_string(degree));
    }
    Detrended result;
    const std::size_t n = values_ns.size();
    result.residuals_ns.assign(n, 0.0);
    PolynomialFit& fit = result.fit;
    fit.degree = degree;
    fit.coefficients.assign(static_cast<std::size_t>(degree) + 1, 0.0);
    if (n == 0) {
        return result;
    }
    const auto [lo, hi] = std::minmax_element(index.begin(), index.end());
    fit.center = (static_cast<double>(*lo) + static_cast<double>(*hi)) / 2.0;
    fit.scale = std::max(1.0, (static_cast<double>(*hi) - static_cast<double>(*lo)) / 2.0);
    if (n <= static_cast<std::size_t>(degree)) {
        // Fewer points than coefficients: the fit passes through every point.
        fit.coefficients[0] = values_ns[0];
        return result;
    }

    // Normal equations in the Legendre basis, accumulated in long double (they are summed over
    // millions of points); then a rank-revealing solve, so a degenerate index set (all pulses
    // at one index) gives the minimum-norm fit instead of garbage.
    const int size = degree + 1;
    Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic> gram =
        Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>::Zero(size, size);
    Eigen::Matrix<long double, Eigen::Dynamic, 1> rhs =
        Eigen::Matrix<long double, Eigen::Dynamic, 1>::Zero(size);
    // Sums run in double over blocks of 4096 points and are then added in long double:
    // as accurate as long double throughout, at double speed.
    double p[max_degree + 1];
    double block_gram[max_degree + 1][max_degree + 1] = {};
    double block_rhs[max_degree + 1] = {};
    const double inverse_scale = 1.0 / fit.scale;
    for (std::size_t i = 0; i < n; ++i) {
        const double u = (static_cast<double>(index[i]) - fit.center) * inverse_scale;
        legendre(u, degree, p);
        for (int r = 0; r < size; ++r) {
            block_rhs[r] += p[r] * values_ns[i];
            for (int c = r; c < size; ++c) {
                block_gram[r][c] += p[r] * p[c];
            }
        }
        if (i % 4096 == 4095 || i + 1 == n) {
            for (int r = 0; r < size; ++r) {
                rhs(r) += block_rhs[r];
                block_rhs[r] = 0;
                for (int c = r; c < size; ++c) {
                    gram(r, c) += block_gram[r][c];
                    block_gram[r][c] = 0;
                }
            }
        }
    }
    for (int r = 0; r < size; ++r) {
        for (int c = 0; c < r; ++c) {
            gram(r, c) = gram(c, r);
        }
    }
    const Eigen::VectorXd solution =
        gram.cast<double>().completeOrthogonalDecomposition().solve(rhs.cast<double>());
    for (int j = 0; j < size; ++j) {
        fit.coefficients[static_cast<std::size_t>(j)] = solution(j);
    }
    for (std::size_t i = 0; i < n; ++i) {
        const double u = (static_cast<double>(index[i]) - fit.center) * inverse_scale;
        legendre(u, degree, p);
        double model = 0;
        for (int j = 0; j < size; ++j) {
            model += solution(j) * p[j];
        }
        result.residuals_ns[i] = values_ns[i] - model;
    }
    return result;
}

Detrended detrend_timestamps(std::span<const std::int64_t> timestamps_ns, std::int64_t period_ns,
                             int degree) {
    const double period = estimate_period_ns(timestamps_ns, period_ns);
    const auto index = pulse_indices(timestamps_ns, period);
    std::vector<double> phase(timestamps_ns.size());
    for (std::size_t i = 0; i < phase.size(); ++i) {
        // Exact integer arithmetic first: t_i − t_0 − k_i·P is small (the clock's drift), so
        // only it is converted to double.
        phase[i] = static_cast<double>(timestamps_ns[i] - timestamps_ns[0] - index[i] * period_ns);
    }
    return detrend(index, phase, degree);
}

}  // namespace ppsbench::stats
