// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: four consecutive values of a series as two SSE2 pairs of doubles, from doubles or
// from whole nanoseconds in int32 (PhaseBuffer), converted exactly: the scans over the phase
// (all_within.cpp, departures.cpp) are written once for both.

#include <cstdint>

#include "ppsbench/core/simd_target.hpp"

#if PPSBENCH_HAVE_SSE2
#include <emmintrin.h>

namespace ppsbench::stats::detail {

struct FourValues {
    __m128d low;   // values 0 and 1
    __m128d high;  // values 2 and 3
};

inline FourValues four_values(const double* p) {
    return {_mm_loadu_pd(p), _mm_loadu_pd(p + 2)};
}

inline FourValues four_values(const std::int32_t* p) {
    const __m128i four = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    return {_mm_cvtepi32_pd(four), _mm_cvtepi32_pd(_mm_srli_si128(four, 8))};
}

}  // namespace ppsbench::stats::detail

#endif
