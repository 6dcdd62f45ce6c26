// SPDX-License-Identifier: GPL-2.0-or-later
#include "departures.hpp"

#include <cmath>

#include "four_values.hpp"
#include "ppsbench/core/simd_target.hpp"

namespace ppsbench::stats::detail {

namespace {

template <typename T>
std::size_t departure_scalar(std::span<const T> phase, std::size_t from, std::size_t to,
                             double slope, double bound) {
    for (std::size_t i = from; i < to; ++i) {
        if (std::abs(static_cast<double>(phase[i]) - static_cast<double>(phase[i - 1]) - slope) >
            bound) {
            return i;
        }
    }
    return to;
}

template <typename T>
std::size_t departure(std::span<const T> phase, std::size_t from, std::size_t to, double slope,
                      double bound) {
#if PPSBENCH_HAVE_SSE2
    const T* x = phase.data();
    const __m128d slope2 = _mm_set1_pd(slope);
    const __m128d bound2 = _mm_set1_pd(bound);
    const __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffff));
    std::size_t i = from;
    // Four samples a step, the scalar operations in the scalar order in each lane (the
    // difference, less the slope, its magnitude; an ordered comparison, false for NaN); the
    // step with a departure is searched again one sample at a time.
    for (; i + 4 <= to; i += 4) {
        const FourValues at = four_values(x + i);
        const FourValues before = four_values(x + i - 1);
        const __m128d a = _mm_sub_pd(_mm_sub_pd(at.low, before.low), slope2);
        const __m128d b = _mm_sub_pd(_mm_sub_pd(at.high, before.high), slope2);
        const __m128d departs = _mm_or_pd(_mm_cmpgt_pd(_mm_and_pd(a, magnitude), bound2),
                                          _mm_cmpgt_pd(_mm_and_pd(b, magnitude), bound2));
        if (_mm_movemask_pd(departs) != 0) {
            break;
        }
    }
    return departure_scalar(phase, i, to, slope, bound);
#else
    return departure_scalar(phase, from, to, slope, bound);
#endif
}

}  // namespace

std::size_t next_departure_scalar(std::span<const double> phase, std::size_t from, std::size_t to,
                                  double slope, double bound) {
    return departure_scalar(phase, from, to, slope, bound);
}

std::size_t next_departure_scalar(std::span<const std::int32_t> phase, std::size_t from,
                                  std::size_t to, double slope, double bound) {
    return departure_scalar(phase, from, to, slope, bound);
}

std::size_t next_departure(std::span<const double> phase, std::size_t from, std::size_t to,
                           double slope, double bound) {
    return departure(phase, from, to, slope, bound);
}

std::size_t next_departure(std::span<const std::int32_t> phase, std::size_t from, std::size_t to,
                           double slope, double bound) {
    return departure(phase, from, to, slope, bound);
}

}  // namespace ppsbench::stats::detail
