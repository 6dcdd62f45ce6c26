// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the steps of detrend() on streamed (index, value) points, so analyze() can fit the
// phase and write the residuals into the buffer that held it instead of keeping both.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "linear_fit_lanes.hpp"
#include "ppsbench/stats/detrend.hpp"

namespace ppsbench::stats::detail {

inline constexpr int max_degree = 2;

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

// The fit's frame for indices in [lo, hi]: centre, scale, zero coefficients.
PolynomialFit begin_fit(int degree, std::int64_t lo, std::int64_t hi);

struct NormalEquations {
    long double gram[max_degree + 1][max_degree + 1] = {};
    long double rhs[max_degree + 1] = {};
};

// Normal equations in the Legendre basis. Sums run in double over blocks of 4096 points and are
// then added in long double: as accurate as long double throughout, at double speed.
// `visit(f)` calls f(std::int64_t index, double value) for each of the n points, in order.
template <typename Visit>
NormalEquations accumulate(const PolynomialFit& fit, std::size_t n, Visit visit) {
    NormalEquations eq;
    const int size = fit.degree + 1;
    double p[max_degree + 1];
    double block_gram[max_degree + 1][max_degree + 1] = {};
    double block_rhs[max_degree + 1] = {};
    const double inverse_scale = 1.0 / fit.scale;
    std::size_t i = 0;
    visit([&](std::int64_t index, double value) {
        const double u = (static_cast<double>(index) - fit.center) * inverse_scale;
        legendre(u, fit.degree, p);
        for (int r = 0; r < size; ++r) {
            block_rhs[r] += p[r] * value;
            for (int c = r; c < size; ++c) {
                block_gram[r][c] += p[r] * p[c];
            }
        }
        if (i % 4096 == 4095 || i + 1 == n) {
            for (int r = 0; r < size; ++r) {
                eq.rhs[r] += block_rhs[r];
                block_rhs[r] = 0;
                for (int c = r; c < size; ++c) {
                    eq.gram[r][c] += block_gram[r][c];
                    block_gram[r][c] = 0;
                }
            }
        }
        ++i;
    });
    return eq;
}

// A rank-revealing solve (Eigen), so a degenerate index set (all pulses at one index) gives the
// minimum-norm fit instead of garbage. Fills fit.coefficients.
void solve(PolynomialFit& fit, const NormalEquations& eq);

// The fitted value at `index`, in double exactly as detrend() computes residuals.
class Model {
  public:
    explicit Model(const PolynomialFit& fit) : fit_(fit), inverse_scale_(1.0 / fit.scale) {}
    double operator()(std::int64_t index) const {
        const double u = (static_cast<double>(index) - fit_.center) * inverse_scale_;
        double p[max_degree + 1];
        legendre(u, fit_.degree, p);
        double model = 0;
        for (int j = 0; j <= fit_.degree; ++j) {
            model += fit_.coefficients[static_cast<std::size_t>(j)] * p[j];
        }
        return model;
    }

  private:
    const PolynomialFit& fit_;
    double inverse_scale_;
};

// accumulate() and the residual loop for degree 1, a run of consecutive pulse indices at a time
// in lanes (linear_fit_lanes.hpp): the same sums, blocks and residuals to the bit. `blocks` is
// anything with for_each(f(values, count, first, k_first)) over the points in order, k counting
// up by one within a call (PhaseView, RunBlocks).
inline constexpr std::size_t fit_block = 4096;

template <typename Blocks>
NormalEquations accumulate_linear(const PolynomialFit& fit, const Blocks& blocks) {
    NormalEquations eq;
    LinearSums block;
    std::size_t in_block = 0;
    const auto flush = [&] {
        eq.rhs[0] += block.rhs0;
        eq.rhs[1] += block.rhs1;
        eq.gram[0][0] += static_cast<double>(in_block);  // Σ 1·1, exact
        eq.gram[0][1] += block.gram01;
        eq.gram[1][1] += block.gram11;
        block = {};
        in_block = 0;
    };
    const double inverse_scale = 1.0 / fit.scale;
    blocks.for_each([&](const double* v, std::size_t count, std::size_t, std::int64_t k_first) {
        for (std::size_t j = 0; j < count;) {
            const std::size_t take = std::min(count - j, fit_block - in_block);
            add_linear_terms(block, v + j, take,
                             static_cast<double>(k_first + static_cast<std::int64_t>(j)),
                             fit.center, inverse_scale);
            in_block += take;
            j += take;
            if (in_block == fit_block) {
                flush();
            }
        }
    });
    if (in_block > 0) {
        flush();
    }
    return eq;
}

// A buffer read a run of an index with for_each_run() (PulseIndex) at a time.
template <typename Index>
struct RunBlocks {
    std::span<const double> values;
    const Index& index;
    template <typename F>
    void for_each(F&& f) const {
        index.for_each_run([&](std::size_t first, std::size_t end, std::int64_t k_first) {
            f(values.data() + first, end - first, first, k_first);
        });
    }
};

template <typename Index>
void subtract_linear(const PolynomialFit& fit, std::span<double> values, const Index& index) {
    const double inverse_scale = 1.0 / fit.scale;
    index.for_each_run([&](std::size_t first, std::size_t end, std::int64_t k_first) {
        subtract_linear_model(values.data() + first, values.data() + first, end - first,
                              static_cast<double>(k_first), fit.center, inverse_scale,
                              fit.coefficients[0], fit.coefficients[1]);
    });
}

template <typename Index>
concept HasRuns = requires(const Index& index) {
    index.for_each_run([](std::size_t, std::size_t, std::int64_t) {});
};

// The detrend stage, on one buffer: fits the phase in `values_ns` against the pulse index and
// subtracts the fit in place, so the buffer comes back holding the residuals (a second buffer
// would be 80 MB at 10 M pulses). `index` is anything with for_each(f(i, k_i)), min() and
// max(): PulseIndex for analyze(), SpanIndex for detrend(). No values: no fit (default).
template <typename Index>
Detrended detrend_series(std::vector<double> values_ns, const Index& index, int degree) {
    Detrended result;
    std::vector<double>& values = result.residuals_ns;
    values = std::move(values_ns);
    const std::size_t n = values.size();
    if (n == 0) {
        return result;
    }
    PolynomialFit& fit = result.fit;
    fit = begin_fit(degree, index.min(), index.max());
    if (n <= static_cast<std::size_t>(degree)) {
        // Fewer points than coefficients: the fit passes through every point.
        fit.coefficients[0] = values[0];
        std::fill(values.begin(), values.end(), 0.0);
        return result;
    }
    if constexpr (HasRuns<Index>) {
        if (degree == 1) {
            solve(fit, accumulate_linear(fit, RunBlocks<Index>{values, index}));
            subtract_linear(fit, values, index);
            return result;
        }
    }
    solve(fit, accumulate(fit, n, [&](auto&& f) {
              index.for_each([&](std::size_t i, std::int64_t ki) { f(ki, values[i]); });
          }));
    const Model model(fit);
    index.for_each([&](std::size_t i, std::int64_t ki) { values[i] -= model(ki); });
    return result;
}

}  // namespace ppsbench::stats::detail
