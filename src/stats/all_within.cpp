// SPDX-License-Identifier: GPL-2.0-or-later
#include "all_within.hpp"

#include "four_values.hpp"
#include "ppsbench/core/simd_target.hpp"

namespace ppsbench::stats::detail {

namespace {

template <typename T>
bool within_scalar(std::span<const T> values, double lo, double hi) {
    for (const T value : values) {
        const auto v = static_cast<double>(value);
        if (!(v >= lo && v <= hi)) {
            return false;
        }
    }
    return true;
}

template <typename T>
bool within(std::span<const T> values, double lo, double hi) {
#if PPSBENCH_HAVE_SSE2
    const T* v = values.data();
    const std::size_t n = values.size();
    const __m128d lo2 = _mm_set1_pd(lo);
    const __m128d hi2 = _mm_set1_pd(hi);
    std::size_t i = 0;
    // Blocks of 64 values, four a step: the outside flags (not >=, not <=: true for NaN, as the
    // scalar test) are OR-ed up and looked at once a block.
    while (i + 64 <= n) {
        __m128d outside = _mm_setzero_pd();
        for (const std::size_t end = i + 64; i < end; i += 4) {
            const auto [a, b] = four_values(v + i);
            outside = _mm_or_pd(outside, _mm_or_pd(_mm_cmpnge_pd(a, lo2), _mm_cmpnle_pd(a, hi2)));
            outside = _mm_or_pd(outside, _mm_or_pd(_mm_cmpnge_pd(b, lo2), _mm_cmpnle_pd(b, hi2)));
        }
        if (_mm_movemask_pd(outside) != 0) {
            return false;
        }
    }
    return within_scalar(values.subspan(i), lo, hi);
#else
    return within_scalar(values, lo, hi);
#endif
}

}  // namespace

bool all_within_scalar(std::span<const double> values, double lo, double hi) {
    return within_scalar(values, lo, hi);
}

bool all_within_scalar(std::span<const std::int32_t> values, double lo, double hi) {
    return within_scalar(values, lo, hi);
}

bool all_within(std::span<const double> values, double lo, double hi) {
    return within(values, lo, hi);
}

bool all_within(std::span<const std::int32_t> values, double lo, double hi) {
    return within(values, lo, hi);
}

}  // namespace ppsbench::stats::detail
