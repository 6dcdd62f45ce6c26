// SPDX-License-Identifier: GPL-2.0-or-later
#include "phase_view.hpp"

namespace ppsbench::stats::detail {

PolynomialFit fit_phase(const PhaseView& phase, int degree) {
    const std::size_t n = phase.size();
    if (n == 0) {
        return {};
    }
    PolynomialFit fit = begin_fit(degree, phase.index().min(), phase.index().max());
    if (n <= static_cast<std::size_t>(degree)) {
        fit.coefficients[0] = phase.at(0);  // through every point (ResidualView gives zeros)
        return fit;
    }
    if (degree == 1) {
        solve(fit, accumulate_linear(fit, phase));
        return fit;
    }
    solve(fit, accumulate(fit, n, [&](auto&& f) {
              phase.for_each(
                  [&](const double* v, std::size_t count, std::size_t, std::int64_t k_first) {
                      for (std::size_t j = 0; j < count; ++j) {
                          f(k_first + static_cast<std::int64_t>(j), v[j]);
                      }
                  });
          }));
    return fit;
}

}  // namespace ppsbench::stats::detail
