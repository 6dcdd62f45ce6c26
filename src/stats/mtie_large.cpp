// SPDX-License-Identifier: GPL-2.0-or-later
// MTIE's kernel for windows longer than small_window samples.

#include <algorithm>
#include <cmath>
#include <vector>

#include "ppsbench/core/simd_target.hpp"

#if PPSBENCH_HAVE_SSE2
#include <emmintrin.h>
#endif

#include "mtie_kernels.hpp"

namespace ppsbench::stats::detail {

namespace {

// Longer windows: van Herk / Gil-Werman. Cut the series into blocks of w samples; a window
// starting at offset j of a block is the block's suffix from j plus the next block's prefix
// up to j − 1, so with the block's suffix extremes and the prefix extremes kept running, every
// window costs O(1): O(N) per tau.
//
// The suffix extremes are not held for the whole block: 2·w samples for the widest window were
// 4 bytes a pulse, report's peak memory at 10 M pulses. The block is cut into segments of at
// most max_segment samples; one pass finds each segment's extremes and their suffixes over the
// segments, and then each segment's own suffix extremes, their chains started from the extremes
// of the segments after it, are the block's, exactly (max and min of the same samples), in a
// buffer of one segment.
// A window of up to max_segment samples is one segment, with no extra pass.
//
// Each running extreme is a serial chain of max/min operations; every loop below runs two
// independent chains (the two halves of a block, or of its windows) side by side and joins
// them afterwards, which is exact because max and min are. The helpers are one kernel cut at
// its loops, always inlined.

// Suffix extremes within the block b[0, width): both halves at once, then the first half
// lifted by the second half's extremes.
// after_high/after_low: the extremes of the samples after b[width − 1] that the suffixes
// include (a segment's: those of the segments after it; ∓inf for none, which gives the
// suffixes of b alone bit for bit: raised_from(v, −inf) is high_of(v)).
[[gnu::always_inline]] inline void block_suffix_extremes(const double* b, std::size_t width,
                                                         double after_high, double after_low,
                                                         double* sh, double* sl) {
    if (width < 2) {  // a one-sample last segment
        sh[0] = raised_from(b[0], after_high);
        sl[0] = lowered_from(b[0], after_low);
        return;
    }
    const std::size_t mid = width / 2;  // first half [0, mid), second [mid, width)
    sh[width - 1] = raised_from(b[width - 1], after_high);
    sl[width - 1] = lowered_from(b[width - 1], after_low);
    sh[mid - 1] = high_of(b[mid - 1]);
    sl[mid - 1] = low_of(b[mid - 1]);
    std::size_t t = 1;
    for (; t < mid; ++t) {
        const std::size_t j2 = width - 1 - t;
        const std::size_t j1 = mid - 1 - t;
        sh[j2] = raised_from(b[j2], sh[j2 + 1]);
        sl[j2] = lowered_from(b[j2], sl[j2 + 1]);
        sh[j1] = raised_from(b[j1], sh[j1 + 1]);
        sl[j1] = lowered_from(b[j1], sl[j1 + 1]);
    }
    for (; t < width - mid; ++t) {
        const std::size_t j2 = width - 1 - t;
        sh[j2] = raised_from(b[j2], sh[j2 + 1]);
        sl[j2] = lowered_from(b[j2], sl[j2 + 1]);
    }
    const double second_high = sh[mid];
    const double second_low = sl[mid];
    for (std::size_t j = 0; j < mid; ++j) {
        sh[j] = std::max(sh[j], second_high);
        sl[j] = std::min(sl[j], second_low);
    }
}

// Windows starting at j = first … last (first ≥ 1) of the block whose suffix extremes from j
// are sh[j − first], sl[j − first]: each adds the next block's first j samples, whose extremes
// up to next[first − 2] are prefix_high/prefix_low on entry, and up to next[last − 1] on
// return. The j range is split at `split`: the second part's prefix starts from the extremes
// of the samples before it (a reduction, no chain), so the two parts run side by side, into
// best_a and best_b.
[[gnu::always_inline]] inline void straddling_windows(const double* next, std::size_t first,
                                                      std::size_t last, const double* sh,
                                                      const double* sl, double& prefix_high,
                                                      double& prefix_low, double& best_a_out,
                                                      double& best_b_out) {
    double best_a = best_a_out;  // local: the loops below keep it in a register
    double best_b = best_b_out;
    // part A: j in [first, split), B: [split, last]
    const std::size_t split = first + (last - first + 2) / 2;
    double reduce_high[2] = {prefix_high, -INFINITY};
    double reduce_low[2] = {prefix_low, INFINITY};
    std::size_t i = first - 1;
    for (; i + 2 <= split - 1; i += 2) {
        reduce_high[0] = raised(reduce_high[0], next[i]);
        reduce_low[0] = lowered(reduce_low[0], next[i]);
        reduce_high[1] = raised(reduce_high[1], next[i + 1]);
        reduce_low[1] = lowered(reduce_low[1], next[i + 1]);
    }
    for (; i < split - 1; ++i) {
        reduce_high[0] = raised(reduce_high[0], next[i]);
        reduce_low[0] = lowered(reduce_low[0], next[i]);
    }
    double high_a = prefix_high;
    double low_a = prefix_low;
    double high_b = std::max(reduce_high[0], reduce_high[1]);
    double low_b = std::min(reduce_low[0], reduce_low[1]);
    std::size_t ja = first;
    std::size_t jb = split;
#if PPSBENCH_HAVE_SSE2
    // Parts A and B as the two lanes of one register: _mm_max_pd(v, h) is raised(h, v) and
    // _mm_min_pd(v, l) lowered(l, v) (NaN v: the running extreme), _mm_max_pd(b, a) is
    // std::max(a, b), _mm_min_pd(b, a) std::min(a, b): the same values as the scalar loop.
    __m128d high = _mm_set_pd(high_b, high_a);
    __m128d low = _mm_set_pd(low_b, low_a);
    __m128d best = _mm_set_pd(best_b, best_a);
    for (; ja < split && jb <= last; ++ja, ++jb) {
        const __m128d v = _mm_set_pd(next[jb - 1], next[ja - 1]);
        high = _mm_max_pd(v, high);
        low = _mm_min_pd(v, low);
        const __m128d top = _mm_max_pd(high, _mm_set_pd(sh[jb - first], sh[ja - first]));
        const __m128d bottom = _mm_min_pd(low, _mm_set_pd(sl[jb - first], sl[ja - first]));
        best = _mm_max_pd(_mm_sub_pd(top, bottom), best);
    }
    _mm_storel_pd(&high_a, high);
    _mm_storeh_pd(&high_b, high);
    _mm_storel_pd(&low_a, low);
    _mm_storeh_pd(&low_b, low);
    _mm_storel_pd(&best_a, best);
    _mm_storeh_pd(&best_b, best);
#endif
    for (; ja < split && jb <= last; ++ja, ++jb) {
        high_a = raised(high_a, next[ja - 1]);
        low_a = lowered(low_a, next[ja - 1]);
        high_b = raised(high_b, next[jb - 1]);
        low_b = lowered(low_b, next[jb - 1]);
        best_a =
            std::max(best_a, std::max(sh[ja - first], high_a) - std::min(sl[ja - first], low_a));
        best_b =
            std::max(best_b, std::max(sh[jb - first], high_b) - std::min(sl[jb - first], low_b));
    }
    for (; ja < split; ++ja) {
        high_a = raised(high_a, next[ja - 1]);
        low_a = lowered(low_a, next[ja - 1]);
        best_a =
            std::max(best_a, std::max(sh[ja - first], high_a) - std::min(sl[ja - first], low_a));
    }
    for (; jb <= last; ++jb) {
        high_b = raised(high_b, next[jb - 1]);
        low_b = lowered(low_b, next[jb - 1]);
        best_b =
            std::max(best_b, std::max(sh[jb - first], high_b) - std::min(sl[jb - first], low_b));
    }
    best_a_out = best_a;
    best_b_out = best_b;
    // Part B ends at next[last − 1]; without it (one window) part A does.
    prefix_high = split <= last ? high_b : high_a;
    prefix_low = split <= last ? low_b : low_a;
}

// Each segment's extremes lifted by those of every segment after it: seg_high[s], seg_low[s]
// for the samples of segments s … count − 1, and ±inf at [count].
void segment_suffix_extremes(const double* b, std::size_t width, std::size_t length,
                             std::size_t count, double* seg_high, double* seg_low) {
    seg_high[count] = -INFINITY;
    seg_low[count] = INFINITY;
    for (std::size_t s = count; s-- > 0;) {
        const std::size_t begin = s * length;
        const std::size_t end = std::min(width, begin + length);
        double high[2] = {seg_high[s + 1], -INFINITY};
        double low[2] = {seg_low[s + 1], INFINITY};
        std::size_t i = begin;
#if PPSBENCH_HAVE_SSE2
        // _mm_max_pd(v, h) is raised(h, v), _mm_min_pd(v, l) lowered(l, v): lane k takes the
        // samples i + k, as the scalar loop's high[k] does.
        __m128d h = _mm_loadu_pd(high);
        __m128d l = _mm_loadu_pd(low);
        for (; i + 2 <= end; i += 2) {
            const __m128d v = _mm_loadu_pd(b + i);
            h = _mm_max_pd(v, h);
            l = _mm_min_pd(v, l);
        }
        _mm_storeu_pd(high, h);
        _mm_storeu_pd(low, l);
#endif
        for (; i + 2 <= end; i += 2) {
            high[0] = raised(high[0], b[i]);
            low[0] = lowered(low[0], b[i]);
            high[1] = raised(high[1], b[i + 1]);
            low[1] = lowered(low[1], b[i + 1]);
        }
        for (; i < end; ++i) {
            high[0] = raised(high[0], b[i]);
            low[0] = lowered(low[0], b[i]);
        }
        seg_high[s] = std::max(high[0], high[1]);
        seg_low[s] = std::min(low[0], low[1]);
    }
}

constexpr std::size_t max_segment = 65536;

}  // namespace

double mtie_large(std::span<const double> x, std::size_t width, LargeWindowBuffers& buffers) {
    const std::size_t n = x.size();
    const std::size_t count = (width + max_segment - 1) / max_segment;
    const std::size_t length = (width + count - 1) / count;  // the last may be shorter
    buffers.suffix_high.resize(length);
    buffers.suffix_low.resize(length);
    buffers.segment_high.resize(count + 1);
    buffers.segment_low.resize(count + 1);
    double* sh = buffers.suffix_high.data();
    double* sl = buffers.suffix_low.data();
    double* seg_high = buffers.segment_high.data();
    double* seg_low = buffers.segment_low.data();
    seg_high[1] = -INFINITY;  // one segment: nothing after it
    seg_low[1] = INFINITY;
    double best_a = -1.0;
    double best_b = -1.0;
    for (std::size_t block = 0; block + width <= n; block += width) {
        const double* b = x.data() + block;
        const std::size_t last = std::min(width - 1, n - width - block);
        if (count > 1) {
            segment_suffix_extremes(b, width, length, count, seg_high, seg_low);
        }
        double prefix_high = -INFINITY;  // of the next block's samples so far
        double prefix_low = INFINITY;
        for (std::size_t s = 0; s < count; ++s) {
            const std::size_t begin = s * length;
            if (s > 0 && begin > last) {
                break;  // no window starts this late in the block
            }
            const std::size_t size = std::min(length, width - begin);
            block_suffix_extremes(b + begin, size, seg_high[s + 1], seg_low[s + 1], sh, sl);
            if (s == 0) {
                best_a = std::max(best_a, sh[0] - sl[0]);  // the window that is the block
            }
            const std::size_t first = std::max<std::size_t>(begin, 1);
            const std::size_t end = std::min(last, begin + size - 1);
            if (first <= end) {
                straddling_windows(b + width, first, end, sh + (first - begin),
                                   sl + (first - begin), prefix_high, prefix_low, best_a, best_b);
            }
        }
    }
    return std::max(best_a, best_b);
}

}  // namespace ppsbench::stats::detail
