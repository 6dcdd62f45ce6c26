// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: MTIE's two exact kernels (mtie.cpp for windows of up to small_window samples,
// mtie_large.cpp for longer ones) and the extremes they share, in which a missing sample (NaN)
// is never chosen.

#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace ppsbench::stats::detail {

// Missing samples are ±inf in the extremes, never chosen.
inline double high_of(double v) {
    return std::isnan(v) ? -INFINITY : v;
}
inline double low_of(double v) {
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

inline constexpr std::size_t small_window = 8193;

// best[i] = MTIE of the windows factors[i] + 1 ≤ small_window samples long (−1: none), taken in
// `order`, the factors' indices by ascending factor.
void mtie_small(std::span<const double> x, std::span<const std::size_t> factors,
                std::span<const std::size_t> order, std::vector<double>& best);

// Scratch of mtie_large(), kept across its calls.
struct LargeWindowBuffers {
    std::vector<double> suffix_high;  // one segment's
    std::vector<double> suffix_low;
    std::vector<double> segment_high;  // per segment, and ±inf after the last
    std::vector<double> segment_low;
};

// MTIE of the windows of `width` > small_window samples; −1 when all are empty.
double mtie_large(std::span<const double> x, std::size_t width, LargeWindowBuffers& buffers);

}  // namespace ppsbench::stats::detail
