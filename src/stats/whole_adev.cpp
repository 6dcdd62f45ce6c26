// SPDX-License-Identifier: GPL-2.0-or-later
// Overlapping ADEV on a whole-nanosecond grid (whole_kernels.hpp).

#include <algorithm>
#include <cmath>
#include <limits>

#include "ppsbench/stats/stability.hpp"
#include "whole_kernels.hpp"
#include "whole_lanes.hpp"
#include "whole_stretches.hpp"

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

// Blocks of eight terms from i (a multiple of 8) to end, each read present for every tau.
template <class L, std::size_t G>
void clean_body(const std::int32_t* x, TauGroup& group, std::size_t i, std::size_t end) {
    using F = typename L::F;
    std::size_t reads[G + 2];
    F low[G];
    F high[G];
#pragma GCC unroll 8
    for (std::size_t r = 0; r < G + 2; ++r) {
        reads[r] = group.read(r);
    }
#pragma GCC unroll 8
    for (std::size_t q = 0; q < G; ++q) {
        low[q] = L::load(group.sums[q]);
        high[q] = L::load(group.sums[q] + 4);
    }
    // The two halves of a block one after the other: fewer values live at once.
    auto half = [&](std::size_t j, F(&sums)[G]) {
        F a[G + 2];
#pragma GCC unroll 8
        for (std::size_t r = 0; r < G + 2; ++r) {
            a[r] = L::load_ns(x + j + reads[r]);
        }
#pragma GCC unroll 4
        for (std::size_t q = 0; q < G; ++q) {
            const F d = (a[q + 2] + a[0]) - (a[q + 1] + a[q + 1]);  // whole, below 2^32: exact
            sums[q] = sums[q] + d * d;
        }
    };
    for (; i < end; i += 8) {
        half(i, low);
        half(i + 4, high);
    }
#pragma GCC unroll 8
    for (std::size_t q = 0; q < G; ++q) {
        L::store(group.sums[q], low[q]);
        L::store(group.sums[q] + 4, high[q]);
    }
}

// The same blocks where a read may be missing: a term that reads one takes its samples as
// zero, so its lane adds +0.0 (which leaves the sum as it is), and is counted out.
template <class L, std::size_t G>
void masked_body(const std::int32_t* x, TauGroup& group, std::size_t i, std::size_t end) {
    using F = typename L::F;
    using I = typename L::I;
    const I holes = L::splat_i(adev_hole);
    std::size_t reads[G + 2];
#pragma GCC unroll 8
    for (std::size_t r = 0; r < G + 2; ++r) {
        reads[r] = group.read(r);
    }
    I out[G];  // the ruled-out terms, per lane (a ruled-out lane's mask is −1)
    F low[G];
    F high[G];
#pragma GCC unroll 8
    for (std::size_t q = 0; q < G; ++q) {
        out[q] = L::splat_i(0);
        low[q] = L::load(group.sums[q]);
        high[q] = L::load(group.sums[q] + 4);
    }
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
            const F d = (L::low_f64(v2) + L::low_f64(v0)) - (L::low_f64(v1) + L::low_f64(v1));
            const F e = (L::high_f64(v2) + L::high_f64(v0)) - (L::high_f64(v1) + L::high_f64(v1));
            low[q] = low[q] + d * d;
            high[q] = high[q] + e * e;
            out[q] = L::sub(out[q], bad);
        }
    }
#pragma GCC unroll 8
    for (std::size_t q = 0; q < G; ++q) {
        L::store(group.sums[q], low[q]);
        L::store(group.sums[q] + 4, high[q]);
        std::int32_t lanes[8];
        L::store_i(lanes, out[q]);
        for (const std::int32_t c : lanes) {
            group.ruled_out[q] += static_cast<std::uint32_t>(c);
        }
    }
}

using BlockKernel = void (*)(const std::int32_t*, TauGroup&, std::size_t, std::size_t);

template <std::size_t G>
[[gnu::flatten]] void clean_base(const std::int32_t* x, TauGroup& g, std::size_t i, std::size_t e) {
    clean_body<BaseLanes, G>(x, g, i, e);
}
template <std::size_t G>
[[gnu::flatten]] void masked_base(const std::int32_t* x, TauGroup& g, std::size_t i,
                                  std::size_t e) {
    masked_body<BaseLanes, G>(x, g, i, e);
}
#if defined(__x86_64__)
template <std::size_t G>
[[gnu::flatten, gnu::target("avx2")]] void clean_avx2(const std::int32_t* x, TauGroup& g,
                                                      std::size_t i, std::size_t e) {
    clean_body<Avx2Lanes, G>(x, g, i, e);
}
template <std::size_t G>
[[gnu::flatten, gnu::target("avx2")]] void masked_avx2(const std::int32_t* x, TauGroup& g,
                                                       std::size_t i, std::size_t e) {
    masked_body<Avx2Lanes, G>(x, g, i, e);
}
#endif

struct GroupKernels {
    BlockKernel clean;
    BlockKernel masked;
};

template <std::size_t G>
GroupKernels kernels_of(Lanes lanes) {
#if defined(__x86_64__)
    if (lanes == Lanes::avx2) {
        return {clean_avx2<G>, masked_avx2<G>};
    }
#endif
    (void)lanes;
    return {clean_base<G>, masked_base<G>};
}

GroupKernels group_kernels(std::size_t taus, Lanes lanes) {
    switch (taus) {
        case 1:
            return kernels_of<1>(lanes);
        case 2:
            return kernels_of<2>(lanes);
        case 3:
            return kernels_of<3>(lanes);
        default:
            return kernels_of<4>(lanes);
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
            const double d = second_difference(x, i, m);
            group.sums[q][i % 8] += d * d;
        }
    }
}

// The group's terms in [from, to): whole blocks between holes unmasked, the rest masked (all of
// it where holes are dense: stretches between them would cost more than they save).
void terms_between(const WholeGrid& g, TauGroup& group, std::size_t from, std::size_t to,
                   bool masked_only, Lanes lanes) {
    const std::int32_t* x = g.x.data();
    const GroupKernels k = group_kernels(group.taus, lanes);
    auto up = [](std::size_t i) { return (i + 7) / 8 * 8; };
    auto down = [](std::size_t i) { return i / 8 * 8; };
    if (up(from) >= down(to)) {
        single_terms(x, group, from, to);
        return;
    }
    single_terms(x, group, from, up(from));
    std::size_t done = up(from);
    if (!masked_only) {
        ReadWindow windows[max_taus + 2];
        for (std::size_t r = 0; r < group.taus + 2; ++r) {
            windows[r] = {group.read(r), group.read(r)};
        }
        auto each = [&](std::size_t a, std::size_t b) {
            if (up(a) < down(b)) {
                k.masked(x, group, done, up(a));
                k.clean(x, group, up(a), down(b));
                done = down(b);
            }
        };
        switch (group.taus) {  // the number of reads is a compile-time size
            case 1:
                CleanStretches<3>(g.hole_runs, windows).for_each(done, down(to), each);
                break;
            case 2:
                CleanStretches<4>(g.hole_runs, windows).for_each(done, down(to), each);
                break;
            case 3:
                CleanStretches<5>(g.hole_runs, windows).for_each(done, down(to), each);
                break;
            default:
                CleanStretches<6>(g.hole_runs, windows).for_each(done, down(to), each);
                break;
        }
    }
    k.masked(x, group, done, down(to));
    single_terms(x, group, down(to), to);
}

// Σ of the eight lanes, in a fixed order.
double lane_total(const double (&sums)[8]) {
    return ((sums[0] + sums[1]) + (sums[2] + sums[3])) +
           ((sums[4] + sums[5]) + (sums[6] + sums[7]));
}

}  // namespace

std::vector<double> whole_adev(const WholeGrid& g, double tau0,
                               std::span<const std::size_t> factors, Lanes lanes) {
    const std::size_t n = g.size();
    const bool masked_only = g.dense_holes;
    std::vector<double> out(factors.size(), std::numeric_limits<double>::quiet_NaN());
    auto valid = [n](std::size_t m) { return m != 0 && n >= 2 * m + 1; };
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
        terms_between(g, group, 0, common, masked_only, lanes);
        for (std::size_t q = 0; q < taus; ++q) {  // each tau's own terms past the common ones
            TauGroup alone;
            alone.m0 = group.m0 << q;
            alone.taus = 1;
            std::copy(group.sums[q], group.sums[q] + 8, alone.sums[0]);
            terms_between(g, alone, common, n - 2 * alone.m0, masked_only, lanes);
            const std::size_t count = n - 2 * alone.m0;
            const std::size_t terms = count - group.ruled_out[q] - alone.ruled_out[0];
            if (terms > 0) {
                const double tau = static_cast<double>(alone.m0) * tau0;
                out[f + q] = std::sqrt(lane_total(alone.sums[0]) * 1e-18 /
                                       static_cast<double>(terms) / (2.0 * tau * tau));
            }
        }
        f += taus;
    }
    return out;
}

}  // namespace ppsbench::stats::detail
