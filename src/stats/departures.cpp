// SPDX-License-Identifier: GPL-2.0-or-later
#include "departures.hpp"

#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ppsbench::stats::detail {

std::size_t next_departure_scalar(std::span<const double> phase, std::size_t from, std::size_t to,
                                  double slope, double bound) {
    for (std::size_t i = from; i < to; ++i) {
        if (std::abs(phase[i] - phase[i - 1] - slope) > bound) {
            return i;
        }
    }
    return to;
}

std::size_t next_departure_scalar(std::span<const std::int32_t> phase, std::size_t from,
                                  std::size_t to, double slope, double bound) {
    for (std::size_t i = from; i < to; ++i) {
        if (std::abs(static_cast<double>(phase[i]) - static_cast<double>(phase[i - 1]) - slope) >
            bound) {
            return i;
        }
    }
    return to;
}

std::size_t next_departure(std::span<const std::int32_t> phase, std::size_t from, std::size_t to,
                           double slope, double bound) {
#if defined(__SSE2__)
    const std::int32_t* x = phase.data();
    const __m128d slope2 = _mm_set1_pd(slope);
    const __m128d bound2 = _mm_set1_pd(bound);
    const __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffff));
    std::size_t i = from;
    // As for doubles, four samples a step; each converted exactly before the arithmetic.
    for (; i + 4 <= to; i += 4) {
        const __m128i at = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i));
        const __m128i before = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i - 1));
        const __m128d a =
            _mm_sub_pd(_mm_sub_pd(_mm_cvtepi32_pd(at), _mm_cvtepi32_pd(before)), slope2);
        const __m128d b = _mm_sub_pd(_mm_sub_pd(_mm_cvtepi32_pd(_mm_srli_si128(at, 8)),
                                                _mm_cvtepi32_pd(_mm_srli_si128(before, 8))),
                                     slope2);
        const __m128d departs = _mm_or_pd(_mm_cmpgt_pd(_mm_and_pd(a, magnitude), bound2),
                                          _mm_cmpgt_pd(_mm_and_pd(b, magnitude), bound2));
        if (_mm_movemask_pd(departs) != 0) {
            break;
        }
    }
    return next_departure_scalar(phase, i, to, slope, bound);
#else
    return next_departure_scalar(phase, from, to, slope, bound);
#endif
}

std::size_t next_departure(std::span<const double> phase, std::size_t from, std::size_t to,
                           double slope, double bound) {
#if defined(__SSE2__)
    const double* x = phase.data();
    const __m128d slope2 = _mm_set1_pd(slope);
    const __m128d bound2 = _mm_set1_pd(bound);
    const __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffff));
    std::size_t i = from;
    // Four samples a step, the scalar operations in the scalar order in each lane (the
    // difference, less the slope, its magnitude; an ordered comparison, false for NaN); the
    // step with a departure is searched again one sample at a time.
    for (; i + 4 <= to; i += 4) {
        const __m128d a =
            _mm_sub_pd(_mm_sub_pd(_mm_loadu_pd(x + i), _mm_loadu_pd(x + i - 1)), slope2);
        const __m128d b =
            _mm_sub_pd(_mm_sub_pd(_mm_loadu_pd(x + i + 2), _mm_loadu_pd(x + i + 1)), slope2);
        const __m128d departs = _mm_or_pd(_mm_cmpgt_pd(_mm_and_pd(a, magnitude), bound2),
                                          _mm_cmpgt_pd(_mm_and_pd(b, magnitude), bound2));
        if (_mm_movemask_pd(departs) != 0) {
            break;
        }
    }
    return next_departure_scalar(phase, i, to, slope, bound);
#else
    return next_departure_scalar(phase, from, to, slope, bound);
#endif
}

}  // namespace ppsbench::stats::detail
