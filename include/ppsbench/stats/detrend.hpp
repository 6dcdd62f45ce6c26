// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <vector>

namespace ppsbench::stats {

// A least-squares polynomial in the pulse index. Internally the index is mapped to
// u = (k − center)/scale in [−1, 1] and the basis is Legendre polynomials in u: the normal
// equations are then nearly diagonal, so the fit keeps full precision at any index range.
struct PolynomialFit {
    int degree = 0;
    double center = 0;
    double scale = 1;
    std::vector<double> coefficients;  // of P_0(u) … P_degree(u)

    double operator()(double index) const;
    // d/dk of the fit at `index`: the mean period error (ns per pulse) for degree 1.
    double slope(double index) const;
};

struct Detrended {
    PolynomialFit fit;
    std::vector<double> residuals_ns;  // value − fit(index), in input order
};

}  // namespace ppsbench::stats
