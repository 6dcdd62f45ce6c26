// SPDX-License-Identifier: GPL-2.0-or-later
// Overlapping ADEV for a group of up to four taus (allan.hpp says why in groups).

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

// The terms of i in [first, stop) into sum[], for taus 0 … G − 1: in pairs of SSE2 lanes where
// there is SSE2 (callgrind counts instructions), lane by lane the scalar operations in the
// scalar order, so every sum is bit for bit the scalar one.
template <std::size_t G>
[[gnu::always_inline]] inline void adev_stretch(const Prepared& x, std::span<const std::size_t> ms,
                                                std::size_t first, std::size_t stop,
                                                double (&sum)[max_group]) {
    std::size_t q0 = 0;
#if PPSBENCH_HAVE_SSE2
    constexpr std::size_t pairs = G / 2;
    if constexpr (pairs > 0) {
        q0 = 2 * pairs;
        const double* raw = x.raw.data();
        const __m128d reference = _mm_set1_pd(x.reference);
        const __m128d two = _mm_set1_pd(2.0);
        __m128d lanes[pairs];
        for (std::size_t p = 0; p < pairs; ++p) {
            lanes[p] = _mm_set_pd(sum[2 * p + 1], sum[2 * p]);
        }
        std::size_t m[2 * pairs];  // local: the loop keeps the factors in registers
        for (std::size_t q = 0; q < 2 * pairs; ++q) {
            m[q] = ms[q];
        }
        for (std::size_t i = first; i < stop; ++i) {
            const __m128d xi = _mm_sub_pd(_mm_set1_pd(raw[i]), reference);
#pragma GCC unroll 2
            for (std::size_t p = 0; p < pairs; ++p) {
                const std::size_t m0 = m[2 * p];
                const std::size_t m1 = m[2 * p + 1];
                const __m128d x1 = _mm_sub_pd(_mm_set_pd(raw[i + m1], raw[i + m0]), reference);
                const __m128d x2 =
                    _mm_sub_pd(_mm_set_pd(raw[i + 2 * m1], raw[i + 2 * m0]), reference);
                // x2 − 2·x1 + xi, left to right as the scalar expression
                const __m128d d = _mm_add_pd(_mm_sub_pd(x2, _mm_mul_pd(two, x1)), xi);
                lanes[p] = _mm_add_pd(lanes[p], _mm_mul_pd(d, d));
            }
        }
        for (std::size_t p = 0; p < pairs; ++p) {
            _mm_storel_pd(&sum[2 * p], lanes[p]);
            _mm_storeh_pd(&sum[2 * p + 1], lanes[p]);
        }
    }
#endif
    for (std::size_t i = first; i < stop; ++i) {
        for (std::size_t q = q0; q < G; ++q) {
            const std::size_t m = ms[q];
            const double d = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
            sum[q] += d * d;
        }
    }
}

// No sample missing, i in [0, start) two at a time: term i into lanes[q][i % 2]. With SSE2 the
// two are one instruction's lanes (callgrind counts instructions), lane by lane the scalar
// operations, so the sums are bit for bit the scalar ones.
template <std::size_t G>
[[gnu::always_inline]] inline void adev_dense_pairs(const Prepared& x,
                                                    std::span<const std::size_t> ms,
                                                    std::size_t start,
                                                    double (&lanes)[max_group][2]) {
#if PPSBENCH_HAVE_SSE2
    const double* raw = x.raw.data();
    const __m128d reference = _mm_set1_pd(x.reference);
    const __m128d two = _mm_set1_pd(2.0);
    std::size_t m[G];  // local: the loop keeps the factors in registers
    __m128d sum[G];
    for (std::size_t q = 0; q < G; ++q) {
        m[q] = ms[q];
        sum[q] = _mm_loadu_pd(lanes[q]);
    }
    for (std::size_t i = 0; i < start; i += 2) {
        const __m128d x0 = _mm_sub_pd(_mm_loadu_pd(raw + i), reference);
#pragma GCC unroll 4
        for (std::size_t q = 0; q < G; ++q) {
            const __m128d x1 = _mm_sub_pd(_mm_loadu_pd(raw + i + m[q]), reference);
            const __m128d x2 = _mm_sub_pd(_mm_loadu_pd(raw + i + 2 * m[q]), reference);
            const __m128d d = _mm_add_pd(_mm_sub_pd(x2, _mm_mul_pd(two, x1)), x0);
            sum[q] = _mm_add_pd(sum[q], _mm_mul_pd(d, d));
        }
    }
    for (std::size_t q = 0; q < G; ++q) {
        _mm_storeu_pd(lanes[q], sum[q]);
    }
#else
    for (std::size_t i = 0; i < start; i += 2) {
        for (std::size_t q = 0; q < G; ++q) {
            const std::size_t m = ms[q];
            const double d0 = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
            const double d1 = x[i + 1 + 2 * m] - 2.0 * x[i + 1 + m] + x[i + 1];
            lanes[q][0] += d0 * d0;
            lanes[q][1] += d1 * d1;
        }
    }
#endif
}

// Some samples missing: every term is tested for NaN, except in the stretches between holes
// (when they are few enough to be listed), where none is NaN: there the same sums in the same
// order, without the test. Then each tau's own tail.
template <std::size_t G>
[[gnu::always_inline]] inline void adev_with_holes(const Prepared& x,
                                                   std::span<const std::size_t> ms,
                                                   const std::size_t* count, std::size_t common,
                                                   double (&lanes)[max_group][2],
                                                   std::size_t* terms) {
    HoleCursors cursors;
    std::size_t i = 0;
    while (i < common) {
        if (!x.holes.empty()) {
            const std::size_t stop = cursors.stretch_end<G, 3>(x, ms, i, common);
            // Local sums: stores into `lanes` could alias the samples as far as the compiler
            // knows, and would force a reload per term.
            double sum[max_group];
            for (std::size_t q = 0; q < G; ++q) {
                sum[q] = lanes[q][0];
            }
            const std::size_t first = i;
            i = std::max(i, stop);
            adev_stretch<G>(x, ms, first, stop, sum);
            for (std::size_t q = 0; q < G; ++q) {
                lanes[q][0] = sum[q];
                terms[q] += i - first;
            }
            if (i == common) {
                break;
            }
        }
        for (std::size_t q = 0; q < G; ++q) {
            const std::size_t m = ms[q];
            const double d = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
            if (!std::isnan(d)) {
                lanes[q][0] += d * d;
                ++terms[q];
            }
        }
        ++i;
    }
    for (std::size_t q = 0; q < G; ++q) {
        const std::size_t m = ms[q];
        for (std::size_t k = common; k < count[q]; ++k) {
            const double d = x[k + 2 * m] - 2.0 * x[k + m] + x[k];
            if (!std::isnan(d)) {
                lanes[q][0] += d * d;
                ++terms[q];
            }
        }
    }
}

template <std::size_t G>
void adev_group(const Prepared& x, double tau0, std::span<const std::size_t> ms, double* out) {
    const std::size_t n = x.size();
    constexpr std::size_t g = G;
    double lanes[max_group][2] = {};
    std::size_t terms[max_group] = {};
    std::size_t count[max_group] = {};
    std::size_t common = n;
    for (std::size_t q = 0; q < g; ++q) {
        count[q] = n - 2 * ms[q];
        common = std::min(common, count[q]);
    }
    if (!x.any_missing) {
        const std::size_t start = common - common % 2;  // where each tau continues on its own
        adev_dense_pairs<G>(x, ms, start, lanes);
        for (std::size_t q = 0; q < g; ++q) {
            const std::size_t m = ms[q];
            std::size_t i = start;
            for (; i + 2 <= count[q]; i += 2) {
                const double d0 = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
                const double d1 = x[i + 1 + 2 * m] - 2.0 * x[i + 1 + m] + x[i + 1];
                lanes[q][0] += d0 * d0;
                lanes[q][1] += d1 * d1;
            }
            for (; i < count[q]; ++i) {
                const double d = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
                lanes[q][0] += d * d;
            }
            terms[q] = count[q];
        }
    } else {
        adev_with_holes<G>(x, ms, count, common, lanes, terms);
    }
    for (std::size_t q = 0; q < g; ++q) {
        if (terms[q] == 0) {
            out[q] = std::numeric_limits<double>::quiet_NaN();
            continue;
        }
        const double tau = static_cast<double>(ms[q]) * tau0;
        out[q] = std::sqrt((lanes[q][0] + lanes[q][1]) / static_cast<double>(terms[q]) /
                           (2.0 * tau * tau));
    }
}

}  // namespace

std::vector<double> adev_all(const Prepared& p, double tau0, std::span<const std::size_t> factors) {
    const std::size_t n = p.size();
    return grouped(
        p, tau0, factors,
        [](auto size, const Prepared& x, double t, std::span<const std::size_t> ms, double* out) {
            adev_group<decltype(size)::value>(x, t, ms, out);
        },
        [n](std::size_t m) { return m != 0 && n >= 2 * m + 1; });
}

}  // namespace ppsbench::stats::detail
