// SPDX-License-Identifier: GPL-2.0-or-later
#include "all_within.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ppsbench::stats::detail {

bool all_within_scalar(std::span<const double> values, double lo, double hi) {
    for (const double v : values) {
        if (!(v >= lo && v <= hi)) {
            return false;
        }
    }
    return true;
}

bool all_within_scalar(std::span<const std::int32_t> values, double lo, double hi) {
    for (const std::int32_t v : values) {
        if (!(static_cast<double>(v) >= lo && static_cast<double>(v) <= hi)) {
            return false;
        }
    }
    return true;
}

bool all_within(std::span<const std::int32_t> values, double lo, double hi) {
#if defined(__SSE2__)
    const std::int32_t* v = values.data();
    const std::size_t n = values.size();
    const __m128d lo2 = _mm_set1_pd(lo);
    const __m128d hi2 = _mm_set1_pd(hi);
    std::size_t i = 0;
    // As for doubles, each pair converted exactly first (a NaN bound fails every value).
    while (i + 64 <= n) {
        __m128d outside = _mm_setzero_pd();
        for (const std::size_t end = i + 64; i < end; i += 4) {
            const __m128i four = _mm_loadu_si128(reinterpret_cast<const __m128i*>(v + i));
            const __m128d a = _mm_cvtepi32_pd(four);
            const __m128d b = _mm_cvtepi32_pd(_mm_srli_si128(four, 8));
            outside = _mm_or_pd(outside, _mm_or_pd(_mm_cmpnge_pd(a, lo2), _mm_cmpnle_pd(a, hi2)));
            outside = _mm_or_pd(outside, _mm_or_pd(_mm_cmpnge_pd(b, lo2), _mm_cmpnle_pd(b, hi2)));
        }
        if (_mm_movemask_pd(outside) != 0) {
            return false;
        }
    }
    return all_within_scalar(values.subspan(i), lo, hi);
#else
    return all_within_scalar(values, lo, hi);
#endif
}

bool all_within(std::span<const double> values, double lo, double hi) {
#if defined(__SSE2__)
    const double* v = values.data();
    const std::size_t n = values.size();
    const __m128d lo2 = _mm_set1_pd(lo);
    const __m128d hi2 = _mm_set1_pd(hi);
    std::size_t i = 0;
    // Blocks of 64 values, four pairs a step: the outside flags (not >=, not <=: true for NaN,
    // as the scalar test) are OR-ed up and looked at once a block.
    while (i + 64 <= n) {
        __m128d outside = _mm_setzero_pd();
        for (const std::size_t end = i + 64; i < end; i += 4) {
            const __m128d a = _mm_loadu_pd(v + i);
            const __m128d b = _mm_loadu_pd(v + i + 2);
            outside = _mm_or_pd(outside, _mm_or_pd(_mm_cmpnge_pd(a, lo2), _mm_cmpnle_pd(a, hi2)));
            outside = _mm_or_pd(outside, _mm_or_pd(_mm_cmpnge_pd(b, lo2), _mm_cmpnle_pd(b, hi2)));
        }
        if (_mm_movemask_pd(outside) != 0) {
            return false;
        }
    }
    return all_within_scalar(values.subspan(i), lo, hi);
#else
    return all_within_scalar(values, lo, hi);
#endif
}

}  // namespace ppsbench::stats::detail
