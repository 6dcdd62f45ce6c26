// SPDX-License-Identifier: GPL-2.0-or-later
// MTIE (stability.hpp): exact, by two kernels that trade speed and memory by window length.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ppsbench/core/simd_target.hpp"

#if PPSBENCH_HAVE_SSE2
#include <emmintrin.h>
#endif

#include "mtie_kernels.hpp"
#include "ppsbench/stats/stability.hpp"

namespace ppsbench::stats {

namespace detail {

namespace {

// The three loops of the doubling tables, two samples an SSE2 instruction where there is one
// (callgrind counts instructions; the compiler leaves the in-place loops scalar). max and min
// are exact, and _mm_max_pd(b, a) is std::max(a, b) (b > a ? b : a), _mm_min_pd(b, a) is
// std::min(a, b), so every value is the scalar one.

// high[i], low[i] = the sample's extremes (a missing one never chosen), i < length.
void fill_extremes(const double* x, std::size_t length, double* high, double* low) {
    std::size_t i = 0;
#if PPSBENCH_HAVE_SSE2
    const __m128d minus_inf = _mm_set1_pd(-INFINITY);
    const __m128d plus_inf = _mm_set1_pd(INFINITY);
    for (; i + 2 <= length; i += 2) {
        const __m128d v = _mm_loadu_pd(x + i);
        const __m128d missing = _mm_cmpunord_pd(v, v);
        _mm_storeu_pd(high + i,
                      _mm_or_pd(_mm_and_pd(missing, minus_inf), _mm_andnot_pd(missing, v)));
        _mm_storeu_pd(low + i, _mm_or_pd(_mm_and_pd(missing, plus_inf), _mm_andnot_pd(missing, v)));
    }
#endif
    for (; i < length; ++i) {
        high[i] = high_of(x[i]);
        low[i] = low_of(x[i]);
    }
}

// One doubling in place: high[i] = max(high[i], high[i + span]) for i + 2·span <= length. Each
// step reads ahead of what it writes, so two at a time read the same values as one at a time.
void double_span(double* high, double* low, std::size_t span, std::size_t length) {
    std::size_t i = 0;
#if PPSBENCH_HAVE_SSE2
    for (; i + 1 + 2 * span <= length; i += 2) {  // i and i + 1 both in range
        _mm_storeu_pd(high + i, _mm_max_pd(_mm_loadu_pd(high + i + span), _mm_loadu_pd(high + i)));
        _mm_storeu_pd(low + i, _mm_min_pd(_mm_loadu_pd(low + i + span), _mm_loadu_pd(low + i)));
    }
#endif
    for (; i + 2 * span <= length; ++i) {
        high[i] = std::max(high[i], high[i + span]);
        low[i] = std::min(low[i], low[i + span]);
    }
}

// The largest max(high[i], high[i + shift]) − min(low[i], low[i + shift]) over i < starts, and
// `best`; four running maxima, not one chain (a single max chain waits on its own latency).
double widest(const double* high, const double* low, std::size_t shift, std::size_t starts,
              double best) {
    double lanes[4] = {best, best, best, best};
    std::size_t i = 0;
#if PPSBENCH_HAVE_SSE2
    __m128d lane01 = _mm_set1_pd(best);
    __m128d lane23 = lane01;
    for (; i + 4 <= starts; i += 4) {
        const __m128d top01 = _mm_max_pd(_mm_loadu_pd(high + i + shift), _mm_loadu_pd(high + i));
        const __m128d top23 =
            _mm_max_pd(_mm_loadu_pd(high + i + 2 + shift), _mm_loadu_pd(high + i + 2));
        const __m128d bottom01 = _mm_min_pd(_mm_loadu_pd(low + i + shift), _mm_loadu_pd(low + i));
        const __m128d bottom23 =
            _mm_min_pd(_mm_loadu_pd(low + i + 2 + shift), _mm_loadu_pd(low + i + 2));
        lane01 = _mm_max_pd(_mm_sub_pd(top01, bottom01), lane01);  // −inf: no sample
        lane23 = _mm_max_pd(_mm_sub_pd(top23, bottom23), lane23);
    }
    _mm_storeu_pd(lanes, lane01);
    _mm_storeu_pd(lanes + 2, lane23);
#else
    for (; i + 4 <= starts; i += 4) {
        for (std::size_t l = 0; l < 4; ++l) {
            const double top = std::max(high[i + l], high[i + l + shift]);
            const double bottom = std::min(low[i + l], low[i + l + shift]);
            lanes[l] = std::max(lanes[l], top - bottom);  // −inf: no sample
        }
    }
#endif
    for (; i < starts; ++i) {
        const double top = std::max(high[i], high[i + shift]);
        const double bottom = std::min(low[i], low[i + shift]);
        lanes[0] = std::max(lanes[0], top - bottom);
    }
    return std::max(std::max(lanes[0], lanes[1]), std::max(lanes[2], lanes[3]));
}

// Windows of up to small_window samples: doubling tables (after k doublings high[i] / low[i]
// hold the extremes of x[i, i + 2^k); a window of w samples, 2^k <= w < 2^(k+1), is the union
// of the 2^k-spans at i and i + w − 2^k), built over one cache-sized chunk of window starts at
// a time, so the tables never leave the cache and never grow with the run.
constexpr std::size_t chunk_starts = 32768;

}  // namespace

void mtie_small(std::span<const double> x, std::span<const std::size_t> factors,
                std::span<const std::size_t> order, std::vector<double>& best) {
    const std::size_t n = x.size();
    std::vector<double> high(chunk_starts + small_window);
    std::vector<double> low(chunk_starts + small_window);
    for (std::size_t c = 0; c < n; c += chunk_starts) {
        const std::size_t length = std::min(n, c + chunk_starts + small_window - 1) - c;
        fill_extremes(x.data() + c, length, high.data(), low.data());
        std::size_t span = 1;
        for (std::size_t index : order) {
            const std::size_t width = factors[index] + 1;
            if (factors[index] == 0 || width > n || width > small_window || c + width > n) {
                continue;
            }
            while (2 * span <= width) {
                double_span(high.data(), low.data(), span, length);
                span *= 2;
            }
            const std::size_t shift = width - span;
            const std::size_t starts = std::min(c + chunk_starts, n - width + 1) - c;
            best[index] = widest(high.data(), low.data(), shift, starts, best[index]);
        }
    }
}

}  // namespace detail

std::vector<double> mtie(std::span<const double> phase_s, std::span<const std::size_t> factors) {
    const std::size_t n = phase_s.size();
    // Exact either way (the result is a max − min of two samples); the two methods only trade
    // speed and memory: neither needs more than about a MB.
    std::vector<std::size_t> order(factors.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return factors[a] < factors[b]; });
    std::vector<double> best(factors.size(), -1.0);
    detail::mtie_small(phase_s, factors, order, best);
    detail::LargeWindowBuffers buffers;
    for (std::size_t index = 0; index < factors.size(); ++index) {
        const std::size_t width = factors[index] + 1;
        if (factors[index] != 0 && width <= n && width > detail::small_window) {
            best[index] = detail::mtie_large(phase_s, width, buffers);
        }
    }
    std::vector<double> result(factors.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t index = 0; index < factors.size(); ++index) {
        const std::size_t width = factors[index] + 1;
        if (factors[index] != 0 && width <= n && best[index] >= 0.0) {
            result[index] = best[index];
        }
    }
    return result;
}

}  // namespace ppsbench::stats
