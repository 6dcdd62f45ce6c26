// SPDX-License-Identifier: GPL-2.0-or-later
#include "linear_fit_lanes.hpp"

#include "lanes.hpp"

namespace ppsbench::stats::detail {

namespace {

[[gnu::always_inline]] inline void add_terms_body(LinearSums& sums, const double* v,
                                                  std::size_t count, double k0, double centre,
                                                  double inverse_scale) {
    // The four sums side by side in one Lanes; each value's four terms are one column of the
    // transposed block, added in value order.
    Lanes acc = {sums.rhs0, sums.rhs1, sums.gram01, sums.gram11};
    Lanes k = Lanes{0.0, 1.0, 2.0, 3.0} + k0;  // whole numbers below 2^53: exact
    const Lanes c = splat(centre);
    const Lanes s = splat(inverse_scale);
    std::size_t i = 0;
    for (; i + lane_count <= count; i += lane_count) {
        const Lanes x = load_lanes(v + i);
        const Lanes u = (k - c) * s;
        const Lanes ux = u * x;
        const Lanes uu = u * u;
        const Lanes a = __builtin_shufflevector(x, ux, 0, 4, 2, 6);
        const Lanes b = __builtin_shufflevector(x, ux, 1, 5, 3, 7);
        const Lanes d = __builtin_shufflevector(u, uu, 0, 4, 2, 6);
        const Lanes e = __builtin_shufflevector(u, uu, 1, 5, 3, 7);
        acc += __builtin_shufflevector(a, d, 0, 1, 4, 5);
        acc += __builtin_shufflevector(b, e, 0, 1, 4, 5);
        acc += __builtin_shufflevector(a, d, 2, 3, 6, 7);
        acc += __builtin_shufflevector(b, e, 2, 3, 6, 7);
        k += 4.0;
    }
    sums = {acc[0], acc[1], acc[2], acc[3]};
    for (; i < count; ++i) {
        const double u = (k0 + static_cast<double>(i) - centre) * inverse_scale;
        sums.rhs0 += 1.0 * v[i];
        sums.rhs1 += u * v[i];
        sums.gram01 += 1.0 * u;
        sums.gram11 += u * u;
    }
}

[[gnu::always_inline]] inline void subtract_body(const double* v, double* out, std::size_t count,
                                                 double k0, double centre, double inverse_scale,
                                                 double c0, double c1) {
    Lanes k = Lanes{0.0, 1.0, 2.0, 3.0} + k0;
    const Lanes c = splat(centre);
    const Lanes s = splat(inverse_scale);
    const Lanes constant = splat(0.0) + splat(c0) * 1.0;
    const Lanes slope = splat(c1);
    std::size_t i = 0;
    for (; i + lane_count <= count; i += lane_count) {
        const Lanes u = (k - c) * s;
        store_lanes(out + i, load_lanes(v + i) - (constant + slope * u));
        k += 4.0;
    }
    for (; i < count; ++i) {
        const double u = (k0 + static_cast<double>(i) - centre) * inverse_scale;
        out[i] = v[i] - ((0.0 + c0 * 1.0) + c1 * u);
    }
}

PPSBENCH_AVX2_TARGET void add_terms_avx2(LinearSums& sums, const double* v, std::size_t count,
                                         double k0, double centre, double inverse_scale) {
    add_terms_body(sums, v, count, k0, centre, inverse_scale);
}
void add_terms_baseline(LinearSums& sums, const double* v, std::size_t count, double k0,
                        double centre, double inverse_scale) {
    add_terms_body(sums, v, count, k0, centre, inverse_scale);
}
PPSBENCH_AVX2_TARGET void subtract_avx2(const double* v, double* out, std::size_t count, double k0,
                                        double centre, double inverse_scale, double c0, double c1) {
    subtract_body(v, out, count, k0, centre, inverse_scale, c0, c1);
}
void subtract_baseline(const double* v, double* out, std::size_t count, double k0, double centre,
                       double inverse_scale, double c0, double c1) {
    subtract_body(v, out, count, k0, centre, inverse_scale, c0, c1);
}

}  // namespace

void add_linear_terms(LinearSums& sums, const double* v, std::size_t count, double k0,
                      double centre, double inverse_scale) {
    (lanes_avx2() ? add_terms_avx2 : add_terms_baseline)(sums, v, count, k0, centre, inverse_scale);
}

void subtract_linear_model(const double* v, double* out, std::size_t count, double k0,
                           double centre, double inverse_scale, double c0, double c1) {
    (lanes_avx2() ? subtract_avx2 : subtract_baseline)(v, out, count, k0, centre, inverse_scale, c0,
                                                       c1);
}

}  // namespace ppsbench::stats::detail
