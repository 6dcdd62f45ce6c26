// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/detrend.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <vector>

#include "detrend_detail.hpp"
#include "detrend_spans.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/quantile.hpp"
#include "train_detail.hpp"

namespace ppsbench::stats {

using detail::legendre;
using detail::max_degree;

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
    return detail::estimate_period(timestamps_ns, timestamps_ns.size(), period_ns);
}

std::vector<std::int64_t> pulse_indices(std::span<const std::int64_t> timestamps_ns,
                                        double period_ns) {
    return detail::PulseIndex(timestamps_ns, timestamps_ns.size(), period_ns).dense();
}

namespace detail {

PolynomialFit begin_fit(int degree, std::int64_t lo, std::int64_t hi) {
    PolynomialFit fit;
    fit.degree = degree;
    fit.coefficients.assign(static_cast<std::size_t>(degree) + 1, 0.0);
    fit.center = (static_cast<double>(lo) + static_cast<double>(hi)) / 2.0;
    fit.scale = std::max(1.0, (static_cast<double>(hi) - static_cast<double>(lo)) / 2.0);
    return fit;
}

void solve(PolynomialFit& fit, const NormalEquations& eq) {
    const int size = fit.degree + 1;
    Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic> gram(size, size);
    Eigen::Matrix<long double, Eigen::Dynamic, 1> rhs(size);
    for (int r = 0; r < size; ++r) {
        rhs(r) = eq.rhs[r];
        for (int c = 0; c < size; ++c) {
            gram(r, c) = c >= r ? eq.gram[r][c] : eq.gram[c][r];
        }
    }
    const Eigen::VectorXd solution =
        gram.cast<double>().completeOrthogonalDecomposition().solve(rhs.cast<double>());
    for (int j = 0; j < size; ++j) {
        fit.coefficients[static_cast<std::size_t>(j)] = solution(j);
    }
}

}  // namespace detail

Detrended detrend(std::span<const std::int64_t> index, std::span<const double> values_ns,
                  int degree) {
    if (degree < 1 || degree > max_degree) {
        throw core::UsageError("detrend degree must be 1 or 2, not " + std::to_string(degree));
    }
    if (values_ns.empty()) {
        Detrended result;
        result.fit = detail::begin_fit(degree, 0, 0);
        result.fit.center = 0;
        result.fit.scale = 1;
        return result;
    }
    return detail::detrend_series(std::vector<double>(values_ns.begin(), values_ns.end()),
                                  detail::SpanIndex{index}, degree);
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
