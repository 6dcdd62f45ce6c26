// SPDX-License-Identifier: GPL-2.0-or-later
// Overlapping ADEV on a whole-nanosecond grid (whole_kernels.hpp).

#include <algorithm>
#include <cmath>
#include <limits>

#include "ppsbench/core/simd_target.hpp"
#include "ppsbench/stats/stability.hpp"
#include "whole_kernels.hpp"
#include "whole_lanes.hpp"

namespace ppsbench::stats::detail {

namespace {

constexpr std::int32_t adev_hole = PhaseGrid::hole;

constexpr std::size_t max_taus = 4;

// Up to four taus at a time, each twice the one before (octave taus): tau q reads x at i,
// i + m_q and i + 2m_q, that is at reads 0, q + 1 and q + 2 of x[i], x[i + m_0], x[i + 2m_0],
// x[i + 4m_0], … (one tau alone: any m). The squares of the second differences go into eight
// lanes, term i into lane i mod 8, in ascending i: every path, grouping and split into
// stretches adds the same squares in the same order to each lane, so a tau's figure is the same
// to the bit whichever taus it is computed with.
struct TauGroup {
    std::size_t m0 = 0;
    std::size_t taus = 0;
    double sums[max_taus][8] = {};
    std::size_t ruled_out[max_taus] = {};

    std::size_t read(std::size_t r) const { return r == 0 ? 0 : m0 << (r - 1); }
};

// x[i + 2m] − 2x[i + m] + x[i], exact (|x| < 2^30), as a double (exact too).
inline double second_difference(const std::int32_t* x, std::size_t i, std::size_t m) {
    return static_cast<double>(std::int64_t{x[i + 2 * m]} - 2 * std::int64_t{x[i + m]} + x[i]);
}

// The group's running sums through a walk over blocks of eight terms, in registers.
template <class L, std::size_t G>
struct Lanes8 {
    typename L::F low[G];
    typename L::F high[G];
    typename L::I out[G];  // the ruled-out terms, per lane (a ruled-out lane's mask is −1)
};

// Blocks from i (a multiple of 8) to end, each read present for every tau.
template <class L, std::size_t G>
[[gnu::always_inline]] inline void clean_blocks(const std::int32_t* x, const std::size_t* reads,
                                                std::size_t i, std::size_t end, Lanes8<L, G>& s) {
    using F = typename L::F;
    const F seconds = L::splat(whole_ns_to_s);
    // The two halves of a block one after the other: fewer values live at once.
    auto half = [&](std::size_t j, F(&sums)[G]) __attribute__((always_inline)) {
        F a[G + 2];
#pragma GCC unroll 8
        for (std::size_t r = 0; r < G + 2; ++r) {
            a[r] = L::load_ns(x + j + reads[r]);
        }
#pragma GCC unroll 4
        for (std::size_t q = 0; q < G; ++q) {
            const F d = ((a[q + 2] + a[0]) - (a[q + 1] + a[q + 1])) * seconds;  // exact, then s
            sums[q] = sums[q] + d * d;
        }
    };
    for (; i < end; i += 8) {
        half(i, s.low);
        half(i + 4, s.high);
    }
}

// The same blocks where a read may be missing: a term that reads one takes its samples as
// zero, so its lane adds +0.0 (which leaves the sum as it is), and is counted out.
template <class L, std::size_t G>
[[gnu::always_inline]] inline void masked_blocks(const std::int32_t* x, const std::size_t* reads,
                                                 std::size_t i, std::size_t end, Lanes8<L, G>& s) {
    using F = typename L::F;
    using I = typename L::I;
    const I holes = L::splat_i(adev_hole);
    const F seconds = L::splat(whole_ns_to_s);
    for (; i < end; i += 8) {
        I v[G + 2];
        I missing[G + 2];
#pragma GCC unroll 8
        for (std::size_t r = 0; r < G + 2; ++r) {
            v[r] = L::load_i(x + i + reads[r]);
            missing[r] = L::eq(v[r], holes);
        }
#pragma GCC unroll 4
        for (std::size_t q = 0; q < G; ++q) {
            const I bad = L::or_i(L::or_i(missing[0], missing[q + 1]), missing[q + 2]);
            const I v0 = L::andnot(bad, v[0]);
            const I v1 = L::andnot(bad, v[q + 1]);
            const I v2 = L::andnot(bad, v[q + 2]);
            const F d =
                ((L::low_f64(v2) + L::low_f64(v0)) - (L::low_f64(v1) + L::low_f64(v1))) * seconds;
            const F e =
                ((L::high_f64(v2) + L::high_f64(v0)) - (L::high_f64(v1) + L::high_f64(v1))) *
                seconds;
            s.low[q] = s.low[q] + d * d;
            s.high[q] = s.high[q] + e * e;
            s.out[q] = L::sub(s.out[q], bad);
        }
    }
}

// Blocks from i to end (multiples of 8): masked in the ranges `dirty` (pairs [a, b) of term
// indices, multiples of 8, ascending), unmasked between them.
template <class L, std::size_t G>
[[gnu::always_inline]] inline void blocks_body(const std::int32_t* x, TauGroup& group,
                                               std::size_t i, std::size_t end,
                                               const std::size_t* dirty, std::size_t ranges) {
    std::size_t reads[G + 2];
#pragma GCC unroll 8
    for (std::size_t r = 0; r < G + 2; ++r) {
        reads[r] = group.read(r);
    }
    Lanes8<L, G> s;
#pragma GCC unroll 8
    for (std::size_t q = 0; q < G; ++q) {
        s.out[q] = L::splat_i(0);
        s.low[q] = L::load(group.sums[q]);
        s.high[q] = L::load(group.sums[q] + 4);
    }
    for (std::size_t r = 0; r < ranges; ++r) {
        clean_blocks<L, G>(x, reads, i, dirty[2 * r], s);
        masked_blocks<L, G>(x, reads, dirty[2 * r], dirty[2 * r + 1], s);
        i = dirty[2 * r + 1];
    }
    clean_blocks<L, G>(x, reads, i, end, s);
#pragma GCC unroll 8
    for (std::size_t q = 0; q < G; ++q) {
        L::store(group.sums[q], s.low[q]);
        L::store(group.sums[q] + 4, s.high[q]);
        std::int32_t lanes[8];
        L::store_i(lanes, s.out[q]);
        for (const std::int32_t c : lanes) {
            group.ruled_out[q] += static_cast<std::uint32_t>(c);
        }
    }
}

using BlockKernel = void (*)(const std::int32_t*, TauGroup&, std::size_t, std::size_t,
                             const std::size_t*, std::size_t);

template <std::size_t G>
[[gnu::flatten]] void blocks_base(const std::int32_t* x, TauGroup& g, std::size_t i,
                                  std::size_t end, const std::size_t* dirty, std::size_t ranges) {
    blocks_body<BaseLanes, G>(x, g, i, end, dirty, ranges);
}
#if PPSBENCH_HAVE_AVX2_DISPATCH
template <std::size_t G>
[[gnu::flatten, gnu::target("avx2")]] void blocks_avx2(const std::int32_t* x, TauGroup& g,
                                                       std::size_t i, std::size_t end,
                                                       const std::size_t* dirty,
                                                       std::size_t ranges) {
    blocks_body<Avx2Lanes, G>(x, g, i, end, dirty, ranges);
}
#endif

template <std::size_t G>
BlockKernel kernel_of(LanePath lanes) {
#if PPSBENCH_HAVE_AVX2_DISPATCH
    if (lanes == LanePath::avx2) {
        return blocks_avx2<G>;
    }
#endif
    (void)lanes;
    return blocks_base<G>;
}

BlockKernel group_kernel(std::size_t taus, LanePath lanes) {
    switch (taus) {
        case 1:
            return kernel_of<1>(lanes);
        case 2:
            return kernel_of<2>(lanes);
        case 3:
            return kernel_of<3>(lanes);
        default:
            return kernel_of<4>(lanes);
    }
}

// The blocks of [from, to) (multiples of 8) where some read of the group is missing, as
// ascending disjoint ranges [a, b): a hole run [s, e) rules out the terms [s − o, e − o) of each
// read offset o. The offsets' lists are merged as they come, each sorted already.
void dirty_blocks(std::span<const std::uint32_t> runs, const TauGroup& group, std::size_t from,
                  std::size_t to, std::vector<std::size_t>& out) {
    out.clear();
    const std::size_t reads = group.taus + 2;
    const std::size_t count = runs.size() / 2;
    std::size_t cursor[max_taus + 2] = {};
    auto start = [&](std::size_t r) {  // the next range of read r: its first block, or `to`
        const std::size_t o = group.read(r);
        std::size_t& c = cursor[r];
        while (c < count && runs[2 * c + 1] <= from + o) {
            ++c;
        }
        return c < count && runs[2 * c] < to + o
                   ? std::max(from, (runs[2 * c] - std::min<std::size_t>(runs[2 * c], o)) / 8 * 8)
                   : to;
    };
    std::size_t next[max_taus + 2];
    for (std::size_t r = 0; r < reads; ++r) {
        next[r] = start(r);
    }
    for (;;) {
        std::size_t r = 0;
        for (std::size_t q = 1; q < reads; ++q) {
            r = next[q] < next[r] ? q : r;
        }
        if (next[r] >= to) {
            return;
        }
        const std::size_t o = group.read(r);
        const std::size_t end = std::min(to, (runs[2 * cursor[r] + 1] - o + 7) / 8 * 8);
        if (!out.empty() && out.back() >= next[r]) {
            out.back() = std::max(out.back(), end);
        } else {
            out.push_back(next[r]);
            out.push_back(end);
        }
        ++cursor[r];
        next[r] = start(r);
    }
}

// Terms [first, last) one at a time (at most 7 of them between blocks), each tested.
void single_terms(const std::int32_t* x, TauGroup& group, std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
        for (std::size_t q = 0; q < group.taus; ++q) {
            const std::size_t m = group.m0 << q;
            if (x[i] == adev_hole || x[i + m] == adev_hole || x[i + 2 * m] == adev_hole) {
                ++group.ruled_out[q];
                continue;
            }
            const double d = second_difference(x, i, m) * whole_ns_to_s;
            group.sums[q][i % 8] += d * d;
        }
    }
}

// The group's terms in [from, to): the blocks where some read is missing masked, the rest
// not (all of them masked where holes are dense: the ranges would cost more than they save).
void terms_between(const WholeGrid& g, TauGroup& group, std::size_t from, std::size_t to,
                   bool masked_only, LanePath lanes, std::vector<std::size_t>& dirty) {
    const std::int32_t* x = g.x.data();
    auto up = [](std::size_t i) { return (i + 7) / 8 * 8; };
    auto down = [](std::size_t i) { return i / 8 * 8; };
    if (up(from) >= down(to)) {
        single_terms(x, group, from, to);
        return;
    }
    single_terms(x, group, from, up(from));
    if (masked_only) {
        dirty = {up(from), down(to)};
    } else {
        dirty_blocks(g.hole_runs, group, up(from), down(to), dirty);
    }
    group_kernel(group.taus, lanes)(x, group, up(from), down(to), dirty.data(), dirty.size() / 2);
    single_terms(x, group, down(to), to);
}

// Σ of the eight lanes, in a fixed order.
double lane_total(const double (&sums)[8]) {
    return ((sums[0] + sums[1]) + (sums[2] + sums[3])) +
           ((sums[4] + sums[5]) + (sums[6] + sums[7]));
}

}  // namespace

std::vector<double> whole_adev(const WholeGrid& g, double tau0,
                               std::span<const std::size_t> factors, LanePath lanes) {
    const std::size_t n = g.size();
    const bool masked_only = g.dense_holes;
    std::vector<double> out(factors.size(), std::numeric_limits<double>::quiet_NaN());
    auto valid = [n](std::size_t m) { return m != 0 && n >= 2 * m + 1; };
    std::vector<std::size_t> dirty;
    for (std::size_t f = 0; f < factors.size();) {
        if (!valid(factors[f])) {
            ++f;
            continue;
        }
        // The taus that double from factors[f] on, up to four.
        std::size_t taus = 1;
        while (taus < max_taus && f + taus < factors.size() &&
               factors[f + taus] == 2 * factors[f + taus - 1] && valid(factors[f + taus])) {
            ++taus;
        }
        TauGroup group;
        group.m0 = factors[f];
        group.taus = taus;
        const std::size_t common = n - 2 * (group.m0 << (taus - 1));
        terms_between(g, group, 0, common, masked_only, lanes, dirty);
        for (std::size_t q = 0; q < taus; ++q) {  // each tau's own terms past the common ones
            TauGroup alone;
            alone.m0 = group.m0 << q;
            alone.taus = 1;
            std::copy(group.sums[q], group.sums[q] + 8, alone.sums[0]);
            terms_between(g, alone, common, n - 2 * alone.m0, masked_only, lanes, dirty);
            const std::size_t count = n - 2 * alone.m0;
            const std::size_t terms = count - group.ruled_out[q] - alone.ruled_out[0];
            if (terms > 0) {
                const double tau = static_cast<double>(alone.m0) * tau0;
                out[f + q] = std::sqrt(lane_total(alone.sums[0]) / static_cast<double>(terms) /
                                       (2.0 * tau * tau));
            }
        }
        f += taus;
    }
    return out;
}

}  // namespace ppsbench::stats::detail
