// SPDX-License-Identifier: GPL-2.0-or-later
// The whole-nanosecond stability kernels (src/stats/whole_*.cpp) against plain reference loops
// that compute each figure exactly (integer sums), on random grids of many sizes with holes
// where the kernels cut their work (lane blocks, stretches, MTIE's chunks and blocks), on every
// SIMD path the machine has; the paths, the groupings of taus and the two ways of skipping
// holes must agree to the bit.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <random>
#include <vector>

#include "../../src/stats/whole_kernels.hpp"
#include "../../src/stats/whole_mtie.hpp"
#include "ppsbench/core/wide_int.hpp"
#include "ppsbench/stats/stability.hpp"

namespace ppsbench::stats {
namespace {

using detail::LanePath;
constexpr std::int32_t hole = PhaseGrid::hole;

std::uint64_t magnitude(std::int64_t v) {
    return v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

std::vector<LanePath> paths() {
    std::vector<LanePath> out;
    for (const LanePath l : {LanePath::base, LanePath::avx2}) {
        if (detail::lanes_available(l)) {
            out.push_back(l);
        }
    }
    return out;
}

double reference_adev(const std::vector<std::int32_t>& x, std::size_t m, double tau0) {
    core::UInt128 sum;  // exact (32-bit ARM has no __int128)
    std::size_t terms = 0;
    for (std::size_t i = 0; i + 2 * m < x.size(); ++i) {
        if (x[i] == hole || x[i + m] == hole || x[i + 2 * m] == hole) {
            continue;
        }
        const std::int64_t d = std::int64_t{x[i + 2 * m]} - 2 * std::int64_t{x[i + m]} + x[i];
        sum = core::add_wide(sum, core::multiply_wide(magnitude(d), magnitude(d)));
        ++terms;
    }
    if (terms == 0) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    const long double tau = static_cast<long double>(m) * tau0;
    return static_cast<double>(
        std::sqrt(core::to_long_double(sum) * 1e-18L / terms / (2 * tau * tau)));
}

// MDEV from prefix sums (holes as zero) and a prefix count of holes: not the kernels' running
// sums, and exact.
double reference_mdev(const std::vector<std::int32_t>& x, std::size_t m, double tau0) {
    const std::size_t n = x.size();
    std::vector<std::int64_t> sum(n + 1, 0);
    std::vector<std::size_t> holes(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
        sum[i + 1] = sum[i] + (x[i] == hole ? 0 : x[i]);
        holes[i + 1] = holes[i] + (x[i] == hole ? 1 : 0);
    }
    core::UInt128 total;  // exact
    std::size_t terms = 0;
    for (std::size_t j = 0; j + 3 * m <= n; ++j) {
        if (holes[j + 3 * m] != holes[j]) {
            continue;
        }
        const std::int64_t inner = sum[j + 3 * m] - 3 * sum[j + 2 * m] + 3 * sum[j + m] - sum[j];
        total = core::add_wide(total, core::multiply_wide(magnitude(inner), magnitude(inner)));
        ++terms;
    }
    if (terms == 0) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    const long double tau = static_cast<long double>(m) * tau0;
    const long double md = m;
    return static_cast<double>(
        std::sqrt(core::to_long_double(total) * 1e-18L / terms / (2 * md * md * tau * tau)));
}

// The largest max − min of the samples present in any m + 1 consecutive slots, by the classic
// monotonic queues.
double reference_mtie(const std::vector<std::int32_t>& x, std::size_t m) {
    const std::size_t w = m + 1;
    if (m == 0 || w > x.size()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    std::deque<std::size_t> high;
    std::deque<std::size_t> low;
    std::int64_t best = -1;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (x[i] != hole) {
            while (!high.empty() && x[high.back()] <= x[i]) {
                high.pop_back();
            }
            high.push_back(i);
            while (!low.empty() && x[low.back()] >= x[i]) {
                low.pop_back();
            }
            low.push_back(i);
        }
        while (!high.empty() && high.front() + w <= i) {
            high.pop_front();
        }
        while (!low.empty() && low.front() + w <= i) {
            low.pop_front();
        }
        if (i + 1 >= w && !high.empty()) {
            best = std::max(best, std::int64_t{x[high.front()]} - x[low.front()]);
        }
    }
    return best < 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(best) * 1e-9;
}

enum class Shape { noise, spikes, ramp, extremes, wide };
enum class Holes { none, sparse, dense, boundaries, long_runs };

std::vector<std::int32_t> make_grid(std::size_t n, Shape shape, Holes holes, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int32_t> jitter(-5000, 5000);
    constexpr std::int32_t top = (1 << 30) - 1;
    std::vector<std::int32_t> x(n);
    for (std::size_t i = 0; i < n; ++i) {
        switch (shape) {
            case Shape::noise:
                x[i] = 123456 + jitter(rng);
                break;
            case Shape::spikes:
                x[i] =
                    jitter(rng) + (rng() % 997 == 0 ? 200000 : 0) - (rng() % 1499 == 0 ? 90000 : 0);
                break;
            case Shape::ramp:  // a drifting phase: MTIE's bounds skip nothing
                x[i] = static_cast<std::int32_t>(3 * i) - 500000 + jitter(rng) / 10;
                break;
            case Shape::extremes:  // the whole allowed range
                x[i] = std::uniform_int_distribution<std::int32_t>(-top, top)(rng);
                break;
            case Shape::wide:  // ±12 µs, white: MDEV's inner sums at m = 512 near 2^19
                x[i] = std::uniform_int_distribution<std::int32_t>(-12000, 12000)(rng);
                break;
        }
    }
    auto drop = [&](std::size_t i) {
        if (i < n) {
            x[i] = hole;
        }
    };
    switch (holes) {
        case Holes::none:
            break;
        case Holes::sparse:
            for (std::size_t i = 0; i < n; ++i) {
                if (rng() % 1000 == 0) {
                    drop(i);
                }
            }
            break;
        case Holes::dense:
            for (std::size_t i = 0; i < n; ++i) {
                if (rng() % 5 < 2) {
                    drop(i);
                }
            }
            break;
        case Holes::boundaries:  // the first and last slots, lane blocks, MTIE's chunk edge
            for (const std::size_t i :
                 {std::size_t{0}, std::size_t{7}, std::size_t{8}, std::size_t{63}, std::size_t{64},
                  std::size_t{65535}, std::size_t{65536}, std::size_t{73728}}) {
                drop(i);
            }
            drop(n - 1);
            drop(n / 2);
            break;
        case Holes::long_runs:  // runs longer than some windows: empty windows, empty spans
            for (std::size_t start = n / 7; start < n; start += n / 3 + 1) {
                for (std::size_t i = start; i < std::min(n, start + n / 10 + 3); ++i) {
                    drop(i);
                }
            }
            break;
    }
    return x;
}

std::vector<std::size_t> factors_for(std::size_t n) {
    std::vector<std::size_t> f = octave_factors(n);
    for (const std::size_t extra : {3UL, 5UL, 12UL, 100UL, 1000UL, 8192UL, 9000UL, 20000UL}) {
        if (3 * extra <= n) {
            f.push_back(extra);
        }
    }
    return f;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](double p, double q) {
               return std::bit_cast<std::uint64_t>(p) == std::bit_cast<std::uint64_t>(q);
           });
}

// Within 1e-12 (issue 26's bound): the squares are summed in double, in eight lanes, which
// moves a figure by a few rounding errors in 1e16; a term too many or too few, by 1e-5 or more.
void expect_near_reference(double got, double want, const char* what, std::size_t m,
                           double tolerance = 1e-12) {
    if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << what << " m " << m;
        return;
    }
    EXPECT_NEAR(got, want, tolerance * want) << what << " m " << m;
}

void check_grid(const std::vector<std::int32_t>& x, const std::vector<std::size_t>& factors,
                bool mtie_reference, double tolerance = 1e-12) {
    const double tau0 = 0.5;
    std::vector<double> first_adev;
    std::vector<double> first_mdev;
    std::vector<double> first_mtie;
    for (const LanePath lanes : paths()) {
        SCOPED_TRACE(lanes == LanePath::avx2 ? "avx2" : "base");
        detail::WholeGrid g = detail::scan_whole(x, lanes);
        const auto adev = detail::whole_adev(g, tau0, factors, lanes);
        const auto mdev = detail::whole_mdev(g, tau0, factors, lanes);
        const auto mtie = detail::whole_mtie(g, factors, lanes);
        if (first_adev.empty()) {
            first_adev = adev;
            first_mdev = mdev;
            first_mtie = mtie;
            for (std::size_t f = 0; f < factors.size(); ++f) {
                expect_near_reference(adev[f], reference_adev(x, factors[f], tau0), "adev",
                                      factors[f], tolerance);
                expect_near_reference(mdev[f], reference_mdev(x, factors[f], tau0), "mdev",
                                      factors[f], tolerance);
                if (mtie_reference) {
                    const double want = reference_mtie(x, factors[f]);
                    EXPECT_EQ(std::bit_cast<std::uint64_t>(mtie[f]),
                              std::bit_cast<std::uint64_t>(want))
                        << "mtie m " << factors[f] << ": " << mtie[f] << " vs " << want;
                }
            }
        }
        EXPECT_TRUE(same_bits(adev, first_adev));
        EXPECT_TRUE(same_bits(mdev, first_mdev));
        EXPECT_TRUE(same_bits(mtie, first_mtie));
        // ADEV's two ways past the holes: the same squares into the same lanes.
        g.dense_holes = !g.dense_holes;
        EXPECT_TRUE(same_bits(detail::whole_adev(g, tau0, factors, lanes), adev));
        // MDEV's steps in int32 (a range below 2^26 ns) or in double: the same inner sums.
        g.range = std::max<std::int64_t>(g.range, std::int64_t{1} << 26);
        EXPECT_TRUE(same_bits(detail::whole_mdev(g, tau0, factors, lanes), mdev));
        // Each tau alone as in its octave group.
        for (std::size_t f = 0; f < factors.size(); ++f) {
            const std::size_t alone[] = {factors[f]};
            EXPECT_EQ(std::bit_cast<std::uint64_t>(detail::whole_adev(g, tau0, alone, lanes)[0]),
                      std::bit_cast<std::uint64_t>(adev[f]))
                << "m " << factors[f];
        }
    }
}

TEST(WholeStability, KernelsMatchExactReferencesAtEveryBoundary) {
    std::uint64_t seed = 1;
    for (const std::size_t n : {5UL, 6UL, 7UL, 8UL, 9UL, 15UL, 16UL, 17UL, 31UL, 33UL, 63UL, 65UL,
                                100UL, 1001UL, 4099UL}) {
        for (const Shape shape : {Shape::noise, Shape::spikes, Shape::ramp, Shape::extremes}) {
            for (const Holes holes :
                 {Holes::none, Holes::sparse, Holes::dense, Holes::boundaries, Holes::long_runs}) {
                SCOPED_TRACE(::testing::Message()
                             << "n " << n << " shape " << int(shape) << " holes " << int(holes));
                check_grid(make_grid(n, shape, holes, ++seed), factors_for(n), true);
            }
        }
    }
}

// Past MTIE's chunk of window starts and its short-window limit: the long windows' block
// bounds, with outliers (most blocks skipped) and a drift (none skipped).
TEST(WholeStability, LongGridsMatchExactReferences) {
    std::uint64_t seed = 100;
    for (const std::size_t n :
         {detail::whole_chunk + detail::whole_small_window, std::size_t{140001}}) {
        for (const Shape shape : {Shape::spikes, Shape::ramp}) {
            for (const Holes holes : {Holes::sparse, Holes::boundaries, Holes::long_runs}) {
                SCOPED_TRACE(::testing::Message()
                             << "n " << n << " shape " << int(shape) << " holes " << int(holes));
                check_grid(make_grid(n, shape, holes, ++seed), factors_for(n), true);
            }
        }
    }
}

// A million inner sums near 2^19: their squares are whole numbers, and a lane's sum passes
// 2^54, where rounding to even would drop the last bit of every odd square (squares are 0 or 1
// modulo 4): 8e-13 low at m = 512, where the unbiased sums are within 3e-14.
TEST(WholeStability, SumsOfSquaresStayUnbiasedPastTwoToThe54) {
    const auto x = make_grid(std::size_t{1} << 20, Shape::wide, Holes::none, 11);
    check_grid(x, {1, 256, 512, 1024}, false, 2e-13);
}

// The report's entry point: the same figures as the seconds path (which reaches the exact ones
// within its own rounding, small here), on one thread or two to the bit, and a grid past
// ±(2^30 − 1) taken through seconds.
TEST(WholeStability, ComputeStabilityAgreesWithTheSecondsPath) {
    PhaseGrid grid;
    grid.reference_ns = 250'000;
    grid.ns = make_grid(30000, Shape::spikes, Holes::sparse, 7);
    PhaseGrid seconds;
    for (const std::int32_t v : grid.ns) {
        seconds.seconds.push_back(v == hole ? std::numeric_limits<double>::quiet_NaN()
                                            : static_cast<double>(grid.reference_ns + v) * 1e-9);
    }
    const Stability whole = compute_stability(grid, 1.0);
    const Stability one = compute_stability(grid, 1.0, StabilityThreads::one);
    const Stability other = compute_stability(seconds, 1.0);
    EXPECT_EQ(whole.missing_samples, other.missing_samples);
    EXPECT_TRUE(same_bits(whole.adev, one.adev));
    EXPECT_TRUE(same_bits(whole.mdev, one.mdev));
    EXPECT_TRUE(same_bits(whole.tdev_s, one.tdev_s));
    EXPECT_TRUE(same_bits(whole.mtie_s, one.mtie_s));
    ASSERT_EQ(whole.factors, other.factors);
    for (std::size_t f = 0; f < whole.factors.size(); ++f) {
        const std::size_t m = whole.factors[f];
        expect_near_reference(whole.adev[f], other.adev[f], "adev", m);
        expect_near_reference(whole.mdev[f], other.mdev[f], "mdev", m);
        expect_near_reference(whole.tdev_s[f], other.tdev_s[f], "tdev", m);
        expect_near_reference(whole.mtie_s[f], other.mtie_s[f], "mtie", m);
    }
    grid.ns[100] = 1 << 30;  // outside the whole kernels' range
    seconds.seconds[100] = static_cast<double>(grid.reference_ns + (1 << 30)) * 1e-9;
    const Stability wide = compute_stability(grid, 1.0);
    const Stability wide_seconds = compute_stability(seconds, 1.0);
    EXPECT_TRUE(same_bits(wide.adev, wide_seconds.adev));
    EXPECT_TRUE(same_bits(wide.mdev, wide_seconds.mdev));
    EXPECT_TRUE(same_bits(wide.mtie_s, wide_seconds.mtie_s));
}

TEST(WholeStability, ScanFindsTheHoleRunsAndTheRange) {
    std::vector<std::int32_t> x(40, 5);
    x[0] = hole;
    x[7] = hole;
    x[8] = hole;
    x[9] = -3;
    x[20] = 11;
    x[39] = hole;
    for (const LanePath lanes : paths()) {
        const detail::WholeGrid g = detail::scan_whole(x, lanes);
        EXPECT_EQ(g.hole_runs, (std::vector<std::uint32_t>{0, 1, 7, 9, 39, 40}));
        EXPECT_EQ(g.missing, 4u);
        EXPECT_EQ(g.range, 14);
        EXPECT_TRUE(g.in_range);
    }
}

}  // namespace
}  // namespace ppsbench::stats
