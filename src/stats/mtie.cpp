// SPDX-License-Identifier: GPL-2.0-or-later
// MTIE (stability.hpp): exact, by two kernels that trade speed and memory by window length.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ppsbench/stats/stability.hpp"

namespace ppsbench::stats {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Missing samples are ±inf in the extremes, never chosen.
double high_of(double v) {
    return std::isnan(v) ? -INFINITY : v;
}
double low_of(double v) {
    return std::isnan(v) ? INFINITY : v;
}

// The same extremes with the sample read raw, no NaN test: a comparison with NaN is false, so
// each returns the running extreme (never NaN itself) for a missing sample, and otherwise the
// very operand std::max/std::min would (ties included), so the values are bit for bit those
// of std::max(h, high_of(v)), std::min(l, low_of(v)), std::max(high_of(v), h) and
// std::min(low_of(v), l), in that order.
inline double raised(double h, double v) {
    return h < v ? v : h;
}
inline double lowered(double l, double v) {
    return v < l ? v : l;
}
inline double raised_from(double v, double h) {
    return v >= h ? v : h;
}
inline double lowered_from(double v, double l) {
    return v <= l ? v : l;
}

// The three loops of the doubling tables, two samples an SSE2 instruction where there is one
// (callgrind counts instructions; the compiler leaves the in-place loops scalar). max and min
// are exact, and _mm_max_pd(b, a) is std::max(a, b) (b > a ? b : a), _mm_min_pd(b, a) is
// std::min(a, b), so every value is the scalar one.

// high[i], low[i] = the sample's extremes (a missing one never chosen), i < length.
void fill_extremes(const double* x, std::size_t length, double* high, double* low) {
    std::size_t i = 0;
#if defined(__SSE2__)
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
#if defined(__SSE2__)
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
#if defined(__SSE2__)
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
constexpr std::size_t small_window = 8193;
constexpr std::size_t chunk_starts = 32768;

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
#if defined(__SSE2__)
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
#if defined(__SSE2__)
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

struct LargeWindowBuffers {
    std::vector<double> suffix_high;  // one segment's
    std::vector<double> suffix_low;
    std::vector<double> segment_high;  // per segment, and ±inf after the last
    std::vector<double> segment_low;
};

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

}  // namespace

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
    mtie_small(phase_s, factors, order, best);
    LargeWindowBuffers buffers;
    for (std::size_t index = 0; index < factors.size(); ++index) {
        const std::size_t width = factors[index] + 1;
        if (factors[index] != 0 && width <= n && width > small_window) {
            best[index] = mtie_large(phase_s, width, buffers);
        }
    }
    std::vector<double> result(factors.size(), nan);
    for (std::size_t index = 0; index < factors.size(); ++index) {
        const std::size_t width = factors[index] + 1;
        if (factors[index] != 0 && width <= n && best[index] >= 0.0) {
            result[index] = best[index];
        }
    }
    return result;
}

}  // namespace ppsbench::stats
