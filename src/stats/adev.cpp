// SPDX-License-Identifier: GPL-2.0-or-later
// Overlapping ADEV for a group of up to four taus (allan.hpp says why in groups).

#include <algorithm>
#include <cmath>
#include <limits>

#include "allan.hpp"

namespace ppsbench::stats::detail {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

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
            for (; i < stop; ++i) {
                for (std::size_t q = 0; q < G; ++q) {
                    const std::size_t m = ms[q];
                    const double d = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
                    sum[q] += d * d;
                }
            }
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
        for (std::size_t i = 0; i < start; i += 2) {
            for (std::size_t q = 0; q < g; ++q) {
                const std::size_t m = ms[q];
                const double d0 = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
                const double d1 = x[i + 1 + 2 * m] - 2.0 * x[i + 1 + m] + x[i + 1];
                lanes[q][0] += d0 * d0;
                lanes[q][1] += d1 * d1;
            }
        }
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
            out[q] = nan;
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
