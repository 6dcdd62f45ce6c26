// SPDX-License-Identifier: GPL-2.0-or-later
// MDEV for a group of up to four taus (allan.hpp says why in groups), O(N) per tau whatever m.

#include <algorithm>
#include <cmath>
#include <limits>

#include "allan.hpp"
#include "ppsbench/core/simd_target.hpp"

#if PPSBENCH_HAVE_SSE2
#include <emmintrin.h>
#endif

namespace ppsbench::stats::detail {

namespace {

// MDEV by running sums. inner_j = Σ_{i=j}^{j+m−1} (x_{i+2m} − 2x_{i+m} + x_i); going from j to
// j+1 adds the term at i = j+m and drops the one at i = j, i.e.
// inner += x_{j+3m} − 3x_{j+2m} + 3x_{j+m} − x_j. Missing samples count as zero inside the
// running sum (keeping the update exact) and a running count of them in the 3m-sample span
// decides whether the term is used. The helpers below are one function cut at its loops:
// always inlined, so each tau's state still lives in registers.
struct MdevState {
    double inner[max_group] = {};
    double sum[max_group] = {};
    std::size_t terms[max_group] = {};
    std::size_t missing_in_span[max_group] = {};
    std::size_t last[max_group] = {};  // per tau: the last j with a term
    std::size_t common = 0;            // every tau of the group has a term at j < common
};

inline double present_or_zero(const Prepared& x, std::size_t i) {
    const double value = x[i];
    return std::isnan(value) ? 0.0 : value;
}

inline std::size_t missing_at(const Prepared& x, std::size_t i) {
    return std::isnan(x[i]) ? 1 : 0;
}

// The first inner sum of each tau and the missing samples in its first span.
template <std::size_t G>
[[gnu::always_inline]] inline MdevState mdev_start(const Prepared& x,
                                                   std::span<const std::size_t> ms) {
    const std::size_t n = x.size();
    MdevState s;
    s.common = n;
    for (std::size_t q = 0; q < G; ++q) {
        const std::size_t m = ms[q];
        for (std::size_t i = 0; i < m; ++i) {
            s.inner[q] += present_or_zero(x, i + 2 * m) - 2 * present_or_zero(x, i + m) +
                          present_or_zero(x, i);
        }
        if (x.any_missing) {
            for (std::size_t i = 0; i < 3 * m; ++i) {
                s.missing_in_span[q] += missing_at(x, i);
            }
        }
        s.last[q] = n - 3 * m;
        s.common = std::min(s.common, s.last[q]);
    }
    return s;
}

#if PPSBENCH_HAVE_SSE2
// mdev_stretch() for P pairs of taus, (0, 1), (2, 3): lane l of pair p is tau 2p + l.
template <std::size_t P>
[[gnu::always_inline]] inline void mdev_stretch_pairs(const Prepared& x, const std::size_t* ms,
                                                      const std::size_t* missing, double* inner_out,
                                                      double* sum_out, std::size_t begin,
                                                      std::size_t stop) {
    const double* raw = x.raw.data();
    const __m128d reference = _mm_set1_pd(x.reference);
    const __m128d three = _mm_set1_pd(3.0);
    __m128d inner[P];
    __m128d sum[P];
    __m128d used[P];  // all ones where the tau's terms count
    for (std::size_t p = 0; p < P; ++p) {
        inner[p] = _mm_set_pd(inner_out[2 * p + 1], inner_out[2 * p]);
        sum[p] = _mm_set_pd(sum_out[2 * p + 1], sum_out[2 * p]);
        used[p] = _mm_castsi128_pd(
            _mm_set_epi64x(missing[2 * p + 1] == 0 ? -1 : 0, missing[2 * p] == 0 ? -1 : 0));
    }
    std::size_t m[2 * P];  // local: the loop keeps the factors in registers
    for (std::size_t q = 0; q < 2 * P; ++q) {
        m[q] = ms[q];
    }
    for (std::size_t j = begin; j < stop; ++j) {
        const __m128d xj = _mm_sub_pd(_mm_set1_pd(raw[j]), reference);
#pragma GCC unroll 2
        for (std::size_t p = 0; p < P; ++p) {
            const std::size_t m0 = m[2 * p];
            const std::size_t m1 = m[2 * p + 1];
            const __m128d x1 = _mm_sub_pd(_mm_set_pd(raw[j + m1], raw[j + m0]), reference);
            const __m128d x2 = _mm_sub_pd(_mm_set_pd(raw[j + 2 * m1], raw[j + 2 * m0]), reference);
            const __m128d x3 = _mm_sub_pd(_mm_set_pd(raw[j + 3 * m1], raw[j + 3 * m0]), reference);
            sum[p] = _mm_add_pd(sum[p], _mm_and_pd(used[p], _mm_mul_pd(inner[p], inner[p])));
            // x3 − 3·x2 + 3·x1 − xj, evaluated left to right as the scalar expression is.
            const __m128d step = _mm_sub_pd(
                _mm_add_pd(_mm_sub_pd(x3, _mm_mul_pd(three, x2)), _mm_mul_pd(three, x1)), xj);
            inner[p] = _mm_add_pd(inner[p], step);
        }
    }
    for (std::size_t p = 0; p < P; ++p) {
        _mm_storel_pd(&inner_out[2 * p], inner[p]);
        _mm_storeh_pd(&inner_out[2 * p + 1], inner[p]);
        _mm_storel_pd(&sum_out[2 * p], sum[p]);
        _mm_storeh_pd(&sum_out[2 * p + 1], sum[p]);
    }
}
#endif

// Between holes: every read in x[j, j + 3m] of every tau is present for j in [begin, stop), so
// present_or_zero() is x[] and the missing counts stay as they are; the same operations in the
// same order as mdev_step(), without its NaN tests. Whether a tau's terms count does not change
// inside a stretch, so an unused tau adds +0.0 (exact: its sum is never −0.0) instead of
// branching, which lets two taus share each SSE2 instruction: callgrind counts instructions, and
// lane by lane these are the scalar operations, so every sum is bit for bit the scalar one.
template <std::size_t G>
[[gnu::always_inline]] inline void mdev_stretch(const Prepared& x, std::span<const std::size_t> ms,
                                                MdevState& s, std::size_t begin, std::size_t stop) {
    // The hot loop works on local copies: stores into `s` could alias the samples as far as
    // the compiler knows, and would force a reload of every running sum per sample.
    double inner[max_group];
    double sum[max_group];
    for (std::size_t q = 0; q < G; ++q) {
        inner[q] = s.inner[q];
        sum[q] = s.sum[q];
        if (s.missing_in_span[q] == 0) {
            s.terms[q] += stop > begin ? stop - begin : 0;
        }
    }
    std::size_t q0 = 0;
#if PPSBENCH_HAVE_SSE2
    q0 = G - G % 2;
    if constexpr (G >= 2) {
        mdev_stretch_pairs<G / 2>(x, ms.data(), s.missing_in_span, inner, sum, begin, stop);
    }
#endif
    for (std::size_t j = begin; j < stop; ++j) {
        const double xj = x[j];
        for (std::size_t q = q0; q < G; ++q) {
            const std::size_t m = ms[q];
            sum[q] += s.missing_in_span[q] == 0 ? inner[q] * inner[q] : 0.0;
            inner[q] += x[j + 3 * m] - 3 * x[j + 2 * m] + 3 * x[j + m] - xj;
        }
    }
    for (std::size_t q = 0; q < G; ++q) {
        s.inner[q] = inner[q];
        s.sum[q] = sum[q];
    }
}

// No sample missing: every j gives a term, the taus side by side while all have one.
template <std::size_t G>
[[gnu::always_inline]] inline void mdev_dense(const Prepared& x, std::span<const std::size_t> ms,
                                              MdevState& s) {
    // The whole run is one stretch between holes (no span misses a sample; terms are set below).
    mdev_stretch<G>(x, ms, s, 0, s.common);
    for (std::size_t q = 0; q < G; ++q) {
        const std::size_t m = ms[q];
        for (std::size_t j = s.common; j < s.last[q]; ++j) {
            s.sum[q] += s.inner[q] * s.inner[q];
            s.inner[q] += x[j + 3 * m] - 3 * x[j + 2 * m] + 3 * x[j + m] - x[j];
        }
        s.sum[q] += s.inner[q] * s.inner[q];
        s.terms[q] = s.last[q] + 1;
    }
}

// The general step at j for tau q: a term only if its span has no hole.
[[gnu::always_inline]] inline void mdev_step(const Prepared& x, std::size_t m, MdevState& s,
                                             std::size_t q, std::size_t j, double vj,
                                             std::size_t mj) {
    if (s.missing_in_span[q] == 0) {
        s.sum[q] += s.inner[q] * s.inner[q];
        ++s.terms[q];
    }
    s.inner[q] += present_or_zero(x, j + 3 * m) - 3 * present_or_zero(x, j + 2 * m) +
                  3 * present_or_zero(x, j + m) - vj;
    s.missing_in_span[q] += missing_at(x, j + 3 * m);
    s.missing_in_span[q] -= mj;
}

// Some samples missing: hole-free stretches at full speed (when the holes are few enough to
// be listed), the general step elsewhere, then each tau's own tail.
template <std::size_t G>
[[gnu::always_inline]] inline void mdev_with_holes(const Prepared& x,
                                                   std::span<const std::size_t> ms, MdevState& s) {
    HoleCursors cursors;
    std::size_t j = 0;
    while (j < s.common) {
        if (!x.holes.empty()) {
            const std::size_t stop = cursors.stretch_end<G, 4>(x, ms, j, s.common);
            mdev_stretch<G>(x, ms, s, j, stop);
            j = std::max(j, stop);
            if (j == s.common) {
                break;
            }
        }
        const double vj = present_or_zero(x, j);
        const std::size_t mj = missing_at(x, j);
        for (std::size_t q = 0; q < G; ++q) {
            mdev_step(x, ms[q], s, q, j, vj, mj);
        }
        ++j;
    }
    for (std::size_t q = 0; q < G; ++q) {
        const std::size_t m = ms[q];
        for (std::size_t k = s.common;; ++k) {
            if (s.missing_in_span[q] == 0) {
                s.sum[q] += s.inner[q] * s.inner[q];
                ++s.terms[q];
            }
            if (k == s.last[q]) {
                break;
            }
            s.inner[q] += present_or_zero(x, k + 3 * m) - 3 * present_or_zero(x, k + 2 * m) +
                          3 * present_or_zero(x, k + m) - present_or_zero(x, k);
            s.missing_in_span[q] += missing_at(x, k + 3 * m);
            s.missing_in_span[q] -= missing_at(x, k);
        }
    }
}

template <std::size_t G>
void mdev_group(const Prepared& x, double tau0, std::span<const std::size_t> ms, double* out) {
    MdevState s = mdev_start<G>(x, ms);
    if (!x.any_missing) {
        mdev_dense<G>(x, ms, s);
    } else {
        mdev_with_holes<G>(x, ms, s);
    }
    for (std::size_t q = 0; q < G; ++q) {
        if (s.terms[q] == 0) {
            out[q] = std::numeric_limits<double>::quiet_NaN();
            continue;
        }
        const double tau = static_cast<double>(ms[q]) * tau0;
        const auto md = static_cast<double>(ms[q]);
        out[q] =
            std::sqrt(s.sum[q] / static_cast<double>(s.terms[q]) / (2.0 * md * md * tau * tau));
    }
}

}  // namespace

std::vector<double> mdev_all(const Prepared& p, double tau0, std::span<const std::size_t> factors) {
    const std::size_t n = p.size();
    return grouped(
        p, tau0, factors,
        [](auto size, const Prepared& x, double t, std::span<const std::size_t> ms, double* out) {
            mdev_group<decltype(size)::value>(x, t, ms, out);
        },
        [n](std::size_t m) { return m != 0 && n >= 3 * m; });
}

}  // namespace ppsbench::stats::detail
