// SPDX-License-Identifier: GPL-2.0-or-later
// MTIE on a whole-nanosecond grid (whole_kernels.hpp): the doubling tables of mtie.cpp on int32,
// eight samples an AVX2 instruction, for windows of up to whole_small_window samples; longer
// ones in whole_mtie_large.cpp.

#include <algorithm>
#include <limits>
#include <numeric>

#include "ppsbench/core/simd_target.hpp"
#include "ppsbench/stats/stability.hpp"
#include "whole_kernels.hpp"
#include "whole_lanes.hpp"
#include "whole_mtie.hpp"

namespace ppsbench::stats::detail {

namespace {

// A missing sample is −2^30 in the maxima and +2^30 in the minima: never chosen over a sample
// present (|x| < 2^30), and a window of holes alone has the range −2^31, below any real one;
// every range fits int32.
constexpr std::int32_t table_hole = PhaseGrid::hole;
constexpr std::int32_t absent_high = -(1 << 30);
constexpr std::int32_t absent_low = 1 << 30;

template <class L>
[[gnu::always_inline]] inline void fill_body(const std::int32_t* x, std::size_t length,
                                             std::int32_t* high, std::int32_t* low) {
    using I = typename L::I;
    const I holes = L::splat_i(table_hole);
    const I floor = L::splat_i(absent_high);
    const I ceiling = L::splat_i(absent_low);
    std::size_t i = 0;
    for (; i + 8 <= length; i += 8) {
        const I v = L::load_i(x + i);
        L::store_i(high + i, L::max(v, floor));
        L::store_i(low + i, L::select(L::eq(v, holes), ceiling, v));
    }
    for (; i < length; ++i) {
        high[i] = std::max(x[i], absent_high);
        low[i] = x[i] == table_hole ? absent_low : x[i];
    }
}

// One pass over the tables: the widest window at `shift` (if starts > 0): the largest
// max(high[i], high[i + shift]) − min(low[i], low[i + shift]) over i < starts, and `best`; and
// the doubling from `span` (if span > 0): high[i] = max(high[i], high[i + span]) in place for
// i + 2·span ≤ length. Where both apply they share the loads of high[i] and low[i]. Each block
// reads ahead of what it writes, so eight at a time read what one at a time would; the widest
// windows past the shared part read values the doubling has not reached yet.
template <class L>
[[gnu::always_inline]] inline std::int32_t pass_body(std::int32_t* high, std::int32_t* low,
                                                     std::size_t shift, std::size_t starts,
                                                     std::int32_t best, std::size_t span,
                                                     std::size_t length) {
    using I = typename L::I;
    const std::size_t doubled = span > 0 && length >= 2 * span ? length - 2 * span + 1 : 0;
    const std::size_t both = std::min(starts, doubled);
    I lanes = L::splat_i(best);
    std::size_t i = 0;
#pragma GCC unroll 2
    for (; i + 8 <= both; i += 8) {
        const I h = L::load_i(high + i);
        const I l = L::load_i(low + i);
        const I top = L::max(h, L::load_i(high + i + shift));
        const I bottom = L::min(l, L::load_i(low + i + shift));
        L::store_i(high + i, L::max(h, L::load_i(high + i + span)));
        L::store_i(low + i, L::min(l, L::load_i(low + i + span)));
        lanes = L::max(lanes, L::sub(top, bottom));
    }
    const std::size_t shared = i;
#pragma GCC unroll 2
    for (; i + 8 <= starts; i += 8) {
        const I top = L::max(L::load_i(high + i), L::load_i(high + i + shift));
        const I bottom = L::min(L::load_i(low + i), L::load_i(low + i + shift));
        lanes = L::max(lanes, L::sub(top, bottom));
    }
    std::int32_t each[8];
    L::store_i(each, lanes);
    best = *std::max_element(each, each + 8);
    for (; i < starts; ++i) {
        const std::int32_t top = std::max(high[i], high[i + shift]);
        const std::int32_t bottom = std::min(low[i], low[i + shift]);
        best = std::max(best, top - bottom);
    }
    i = shared;  // the doubling past the shared part, after the windows that read it
#pragma GCC unroll 2
    for (; i + 8 <= doubled; i += 8) {
        L::store_i(high + i, L::max(L::load_i(high + i), L::load_i(high + i + span)));
        L::store_i(low + i, L::min(L::load_i(low + i), L::load_i(low + i + span)));
    }
    for (; i < doubled; ++i) {
        high[i] = std::max(high[i], high[i + span]);
        low[i] = std::min(low[i], low[i + span]);
    }
    return best;
}

[[gnu::flatten]] void fill_base(const std::int32_t* x, std::size_t length, std::int32_t* high,
                                std::int32_t* low) {
    fill_body<BaseLanes>(x, length, high, low);
}
[[gnu::flatten]] std::int32_t pass_base(std::int32_t* high, std::int32_t* low, std::size_t shift,
                                        std::size_t starts, std::int32_t best, std::size_t span,
                                        std::size_t length) {
    return pass_body<BaseLanes>(high, low, shift, starts, best, span, length);
}

#if PPSBENCH_HAVE_AVX2_DISPATCH
[[gnu::flatten, gnu::target("avx2")]] void fill_avx2(const std::int32_t* x, std::size_t length,
                                                     std::int32_t* high, std::int32_t* low) {
    fill_body<Avx2Lanes>(x, length, high, low);
}
[[gnu::flatten, gnu::target("avx2")]] std::int32_t pass_avx2(std::int32_t* high, std::int32_t* low,
                                                             std::size_t shift, std::size_t starts,
                                                             std::int32_t best, std::size_t span,
                                                             std::size_t length) {
    return pass_body<Avx2Lanes>(high, low, shift, starts, best, span, length);
}
#endif

struct TableKernels {
    void (*fill)(const std::int32_t*, std::size_t, std::int32_t*, std::int32_t*);
    std::int32_t (*pass)(std::int32_t*, std::int32_t*, std::size_t, std::size_t, std::int32_t,
                         std::size_t, std::size_t);
};

TableKernels table_kernels(LanePath lanes) {
#if PPSBENCH_HAVE_AVX2_DISPATCH
    if (lanes == LanePath::avx2) {
        return {fill_avx2, pass_avx2};
    }
#endif
    (void)lanes;
    return {fill_base, pass_base};
}

// best[i] for the windows of factors[order[…]] + 1 ≤ whole_small_window samples.
void small_windows(const WholeGrid& g, std::span<const std::size_t> factors,
                   std::span<const std::size_t> order, std::vector<std::int64_t>& best,
                   LanePath lanes) {
    const TableKernels k = table_kernels(lanes);
    const std::size_t n = g.size();
    std::vector<std::int32_t> high(whole_chunk + whole_small_window);
    std::vector<std::int32_t> low(whole_chunk + whole_small_window);
    for (std::size_t c = 0; c < n; c += whole_chunk) {
        const std::size_t length = std::min(n, c + whole_chunk + whole_small_window - 1) - c;
        k.fill(g.x.data() + c, length, high.data(), low.data());
        std::size_t span = 1;
        // The widest windows of a tau wait for the next doubling, to share its pass.
        std::size_t waiting = order.size();  // the tau, or none
        std::size_t shift = 0;
        std::size_t starts = 0;
        auto pass = [&](std::size_t doubling) {
            if (waiting == order.size()) {
                k.pass(high.data(), low.data(), 0, 0, -1, doubling, length);
                return;
            }
            const auto b = static_cast<std::int32_t>(std::max<std::int64_t>(best[waiting], -1));
            best[waiting] = k.pass(high.data(), low.data(), shift, starts, b, doubling, length);
            waiting = order.size();
        };
        for (const std::size_t index : order) {
            const std::size_t width = factors[index] + 1;
            if (factors[index] == 0 || width > n || width > whole_small_window || c + width > n) {
                continue;
            }
            if (2 * span > width) {  // no doubling to share: the waiting windows alone
                pass(0);
            }
            while (2 * span <= width) {
                pass(span);
                span *= 2;
            }
            waiting = index;
            shift = width - span;
            starts = std::min(c + whole_chunk, n - width + 1) - c;
        }
        pass(0);
    }
}

}  // namespace

std::vector<double> whole_mtie(const WholeGrid& g, std::span<const std::size_t> factors,
                               LanePath lanes) {
    const std::size_t n = g.size();
    std::vector<std::size_t> order(factors.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return factors[a] < factors[b]; });
    std::vector<std::int64_t> best(factors.size(), -1);
    small_windows(g, factors, order, best, lanes);
    // MTIE never falls as the window grows: the best of a shorter window is a floor for the
    // longer ones, which lets them skip most of the series (whole_mtie_large.cpp).
    std::int64_t floor = -1;
    LargeWindowBlocks blocks(g, lanes);
    for (const std::size_t index : order) {
        const std::size_t width = factors[index] + 1;
        if (factors[index] != 0 && width <= n && width > whole_small_window) {
            best[index] = large_window(g, width, floor, blocks);
        }
        floor = std::max(floor, best[index]);
    }
    std::vector<double> result(factors.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t index = 0; index < factors.size(); ++index) {
        const std::size_t width = factors[index] + 1;
        if (factors[index] != 0 && width <= n && best[index] >= 0) {
            result[index] = static_cast<double>(best[index]) * 1e-9;
        }
    }
    return result;
}

}  // namespace ppsbench::stats::detail
