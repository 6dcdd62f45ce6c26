// SPDX-License-Identifier: GPL-2.0-or-later
// MDEV on a whole-nanosecond grid (whole_kernels.hpp).

#include <cmath>
#include <limits>

#include "ppsbench/core/simd_target.hpp"
#include "ppsbench/stats/stability.hpp"
#include "whole_kernels.hpp"
#include "whole_lanes.hpp"
#include "whole_stretches.hpp"

namespace ppsbench::stats::detail {

namespace {

// inner_j = Σ_{i=j}^{j+m−1} (x_{i+2m} − 2x_{i+m} + x_i), and inner_{j+1} = inner_j + step_j with
// step_j = x_{j+3m} − 3x_{j+2m} + 3x_{j+m} − x_j. On whole nanoseconds every inner sum is a
// whole number of magnitude at most 2m·range, so below 2^53 it is exact in double, however it
// is added up: four consecutive inner sums are the one before them plus the prefix sums of
// four steps, one SIMD block at a time, with no serial chain per term.

inline std::int64_t whole_step(const std::int32_t* x, std::size_t j, std::size_t m) {
    return std::int64_t{x[j + 3 * m]} - 3 * std::int64_t{x[j + 2 * m]} +
           3 * std::int64_t{x[j + m]} - x[j];
}

// inner_a, exactly (its partial sums are bounded as the inner sums are).
template <class L>
[[gnu::always_inline]] inline double first_inner_body(const std::int32_t* x, std::size_t m,
                                                      std::size_t a) {
    using F = typename L::F;
    F lanes = L::zero();
    std::size_t i = a;
    for (; i + 4 <= a + m; i += 4) {
        const F x0 = L::load_ns(x + i);
        const F x1 = L::load_ns(x + i + m);
        const F x2 = L::load_ns(x + i + 2 * m);
        lanes = lanes + ((x2 + x0) - (x1 + x1));
    }
    double parts[4];
    L::store(parts, lanes);
    double inner = (parts[0] + parts[1]) + (parts[2] + parts[3]);
    for (; i < a + m; ++i) {
        inner +=
            static_cast<double>(std::int64_t{x[i + 2 * m]} - 2 * std::int64_t{x[i + m]} + x[i]);
    }
    return inner;
}

// A stretch's terms in the lanes: the eight sums of squares in two registers and the inner sum
// before the next block.
template <class L>
struct Terms {
    typename L::F low;
    typename L::F high;
    typename L::F carry;
};

// The first term, j = a, into lane 7; the lanes loaded.
template <class L>
[[gnu::always_inline]] inline Terms<L> start_terms(const std::int32_t* x, std::size_t m,
                                                   std::size_t a, double* sums) {
    const double first = first_inner_body<L>(x, m, a);
    const double first_s = first * whole_ns_to_s;
    sums[7] += first_s * first_s;
    return {L::load(sums), L::load(sums + 4), L::splat(first)};
}

// The lanes stored, and the terms j … last past the last whole block one by one.
template <class L>
[[gnu::always_inline]] inline void finish_terms(const Terms<L>& t, const std::int32_t* x,
                                                std::size_t m, std::size_t a, std::size_t j,
                                                std::size_t last, double* sums) {
    L::store(sums, t.low);
    L::store(sums + 4, t.high);
    double inner[4];
    L::store(inner, t.carry);
    double c = inner[0];
    for (; j <= last; ++j) {
        c += static_cast<double>(whole_step(x, j - 1, m));
        const double c_s = c * whole_ns_to_s;
        sums[(j - a - 1) % 8] += c_s * c_s;
    }
}

// The terms j = a … last, their squares into eight lanes: term j into lane (j − a − 1) mod 8
// (the first, j = a, into lane 7), in ascending j, on every path.
template <class L>
[[gnu::always_inline]] inline void mdev_stretch_body(const std::int32_t* x, std::size_t m,
                                                     std::size_t a, std::size_t last,
                                                     double* sums) {
    using F = typename L::F;
    Terms<L> t = start_terms<L>(x, m, a, sums);
    F& low = t.low;
    F& high = t.high;
    F& carry = t.carry;
    const F three = L::splat(3.0);
    const F seconds = L::splat(whole_ns_to_s);
    // The inner sums at j … j + 3: the one at j − 1 plus the prefix sums of steps j − 1 … j + 2.
    auto block = [&](std::size_t j) __attribute__((always_inline)) {
        const std::int32_t* p = x + j - 1;
        const F x0 = L::load_ns(p);
        const F x1 = L::load_ns(p + m);
        const F x2 = L::load_ns(p + 2 * m);
        const F x3 = L::load_ns(p + 3 * m);
        const F steps = L::prefix((x3 - x0) + three * (x1 - x2));
        const F inner = carry + steps;
        carry = carry + L::last(steps);
        return inner;
    };
    std::size_t j = a + 1;
    for (; j + 8 <= last + 1; j += 8) {
        const F u = block(j) * seconds;
        const F v = block(j + 4) * seconds;
        low = low + u * u;
        high = high + v * v;
    }
    if (j + 4 <= last + 1) {
        const F u = block(j) * seconds;
        low = low + u * u;
        j += 4;
    }
    finish_terms<L>(t, x, m, a, j, last, sums);
}

// The same terms where every step's partial sums over eight steps fit int32 (a grid whose
// range is below 2^26 ns: |step| ≤ 4·range): the eight steps of a block in one int32 register,
// their prefix sums there too, then to double: fewer instructions a term.
template <class L>
[[gnu::always_inline]] inline void mdev_narrow_body(const std::int32_t* x, std::size_t m,
                                                    std::size_t a, std::size_t last, double* sums) {
    using F = typename L::F;
    using I = typename L::I;
    Terms<L> t = start_terms<L>(x, m, a, sums);
    F& low = t.low;
    F& high = t.high;
    F& carry = t.carry;
    const F seconds = L::splat(whole_ns_to_s);
    std::size_t j = a + 1;
    for (; j + 8 <= last + 1; j += 8) {  // inner sums j … j + 7 from steps j − 1 … j + 6
        const std::int32_t* p = x + j - 1;
        const I x0 = L::load_i(p);
        const I x1 = L::load_i(p + m);
        const I x2 = L::load_i(p + 2 * m);
        const I x3 = L::load_i(p + 3 * m);
        const I d = L::sub(x1, x2);
        const I steps = L::prefix_i(L::add(L::sub(x3, x0), L::add(L::add(d, d), d)));
        const F u = carry + L::low_f64(steps);
        const F v = carry + L::high_f64(steps);
        carry = L::last(v);
        const F u_s = u * seconds;
        const F v_s = v * seconds;
        low = low + u_s * u_s;
        high = high + v_s * v_s;
    }
    finish_terms<L>(t, x, m, a, j, last, sums);
}

[[gnu::flatten]] void mdev_stretch_base(const std::int32_t* x, std::size_t m, std::size_t a,
                                        std::size_t last, double* sums) {
    mdev_stretch_body<BaseLanes>(x, m, a, last, sums);
}
[[gnu::flatten]] void mdev_narrow_base(const std::int32_t* x, std::size_t m, std::size_t a,
                                       std::size_t last, double* sums) {
    mdev_narrow_body<BaseLanes>(x, m, a, last, sums);
}

#if PPSBENCH_HAVE_AVX2_DISPATCH
[[gnu::flatten, gnu::target("avx2")]] void mdev_stretch_avx2(const std::int32_t* x, std::size_t m,
                                                             std::size_t a, std::size_t last,
                                                             double* sums) {
    mdev_stretch_body<Avx2Lanes>(x, m, a, last, sums);
}
[[gnu::flatten, gnu::target("avx2")]] void mdev_narrow_avx2(const std::int32_t* x, std::size_t m,
                                                            std::size_t a, std::size_t last,
                                                            double* sums) {
    mdev_narrow_body<Avx2Lanes>(x, m, a, last, sums);
}
#endif

using MdevStretch = void (*)(const std::int32_t*, std::size_t, std::size_t, std::size_t, double*);

MdevStretch mdev_kernel(LanePath lanes, bool narrow) {
#if PPSBENCH_HAVE_AVX2_DISPATCH
    if (lanes == LanePath::avx2) {
        return narrow ? mdev_narrow_avx2 : mdev_stretch_avx2;
    }
#endif
    (void)lanes;
    return narrow ? mdev_narrow_base : mdev_stretch_base;
}

// Inner sums of 2^53 or more (a phase spanning seconds, at a factor in the millions): exact in
// int64, each rounded once to double before it is squared. The same lanes.
void mdev_stretch_wide(const std::int32_t* x, std::size_t m, std::size_t a, std::size_t last,
                       double* sums) {
    std::int64_t inner = 0;
    for (std::size_t i = a; i < a + m; ++i) {
        inner += std::int64_t{x[i + 2 * m]} - 2 * std::int64_t{x[i + m]} + x[i];
    }
    for (std::size_t j = a;; ++j) {
        const double v = static_cast<double>(inner) * whole_ns_to_s;
        sums[(j - a + 7) % 8] += v * v;
        if (j == last) {
            break;
        }
        inner += whole_step(x, j, m);
    }
}

double mdev_lane_total(const double (&sums)[8]) {
    return ((sums[0] + sums[1]) + (sums[2] + sums[3])) +
           ((sums[4] + sums[5]) + (sums[6] + sums[7]));
}

}  // namespace

std::vector<double> whole_mdev(const WholeGrid& g, double tau0,
                               std::span<const std::size_t> factors, LanePath lanes) {
    const std::size_t n = g.size();
    const MdevStretch fast = mdev_kernel(lanes, g.range < (std::int64_t{1} << 26));
    std::vector<double> out(factors.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t f = 0; f < factors.size(); ++f) {
        const std::size_t m = factors[f];
        if (m == 0 || n < 3 * m) {
            continue;
        }
        // |inner| ≤ 2m·range, and range < 2^31.
        const bool exact = m < (std::size_t{1} << 21) ||
                           static_cast<double>(m) * static_cast<double>(g.range) < 0x1p52;
        const MdevStretch stretch = exact ? fast : mdev_stretch_wide;
        double sums[8] = {};
        std::size_t terms = 0;
        using Stretches = CleanStretches<1>;
        const ReadWindow span[1] = {{0, 3 * m - 1}};
        Stretches(g.hole_runs, span).for_each(0, n - 3 * m + 1, [&](std::size_t a, std::size_t b) {
            stretch(g.x.data(), m, a, b - 1, sums);
            terms += b - a;
        });
        if (terms == 0) {
            continue;
        }
        const double tau = static_cast<double>(m) * tau0;
        const auto md = static_cast<double>(m);
        out[f] = std::sqrt(mdev_lane_total(sums) / static_cast<double>(terms) /
                           (2.0 * md * md * tau * tau));
    }
    return out;
}

}  // namespace ppsbench::stats::detail
