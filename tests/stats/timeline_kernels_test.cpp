// SPDX-License-Identifier: GPL-2.0-or-later
// The shortcuts of analyze()'s timeline after the phase: the fold into the window and the drift
// check leave the usual run alone after a range test, two values an SSE2 instruction. Each path
// against the plain loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ppsbench/stats/quantile.hpp"
// Internal: the kernels themselves.
#include "../../src/stats/all_within.hpp"
#include "../../src/stats/drift.hpp"
#include "../../src/stats/phase.hpp"
#include "../../src/stats/train_detail.hpp"

namespace ppsbench::stats {
namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

// Integers near a centre, now and then a wild one, a NaN or an infinity.
std::vector<double> values_near(std::mt19937_64& rng, std::size_t n, double centre, double spread) {
    std::vector<double> v(n);
    std::normal_distribution<double> noise(0, spread);
    for (double& x : v) {
        x = centre + std::round(noise(rng));
        const auto odd = rng() % 4000;
        x = odd == 0 ? not_a_number : odd == 1 ? -INFINITY : odd == 2 ? centre + 1e6 * spread : x;
    }
    return v;
}

TEST(TimelineKernels, EveryPathOfTheRangeTestGivesThePlainAnswer) {
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 3000; ++trial) {
        const std::size_t n = rng() % 300;
        const auto v = values_near(rng, n, -300.0, 20.0);
        const double lo = -300.0 - static_cast<double>(rng() % 120);
        const double hi = -300.0 + static_cast<double>(rng() % 120);
        const bool plain =
            std::all_of(v.begin(), v.end(), [&](double x) { return lo <= x && x <= hi; });
        // Every start, so that the blocks of 64 begin anywhere.
        const std::size_t first = n > 0 ? rng() % n : 0;
        const std::span<const double> part = std::span<const double>(v).subspan(first);
        const bool plain_part =
            std::all_of(part.begin(), part.end(), [&](double x) { return lo <= x && x <= hi; });
        EXPECT_EQ(detail::all_within(v, lo, hi), plain);
        EXPECT_EQ(detail::all_within_scalar(v, lo, hi), plain);
        EXPECT_EQ(detail::all_within(part, lo, hi), plain_part);
    }
}

// The fold as a loop over every value.
void fold_by_hand(std::vector<double>& v, std::int64_t centre, std::int64_t period_ns) {
    const auto p = static_cast<double>(period_ns);
    const auto c = static_cast<double>(centre);
    for (double& x : v) {
        const double periods = std::ceil((x - c) / p - 0.5);
        if (periods != 0) {
            x -= periods * p;
        }
    }
}

TEST(TimelineKernels, TheFoldIntoTheWindowIsTheFoldOfEveryValue) {
    std::mt19937_64 rng(13);
    for (int trial = 0; trial < 300; ++trial) {
        const std::int64_t period = std::array<std::int64_t, 5>{1'000'000'000, 7, 4, 1'000'000,
                                                                std::int64_t{1} << 41}[rng() % 5];
        const std::int64_t centre =
            static_cast<std::int64_t>(rng() % 2001) - 1000 + (rng() % 5 == 0 ? period / 2 : 0);
        // Offsets within the window, on its edges, and a period or more out.
        const std::size_t n = rng() % 10000;
        std::vector<double> v(n);
        for (double& x : v) {
            const auto edge =
                static_cast<double>(period / 2 - 1 + static_cast<std::int64_t>(rng() % 3));
            const auto r = rng() % 1000;
            x = static_cast<double>(centre) +
                (r == 0   ? 3.5 * static_cast<double>(period)
                 : r == 1 ? edge
                 : r == 2 ? -edge
                 : r == 3 ? not_a_number
                          : static_cast<double>(static_cast<std::int64_t>(rng() % 4001) - 2000) *
                                static_cast<double>(period) / 10000.0);
        }
        std::vector<double> expected = v;
        fold_by_hand(expected, centre, period);
        detail::fold_into_window(v, centre, period);
        ASSERT_EQ(v.size(), expected.size());
        for (std::size_t i = 0; i < n; ++i) {
            ASSERT_EQ(std::bit_cast<std::uint64_t>(v[i]), std::bit_cast<std::uint64_t>(expected[i]))
                << "trial " << trial << ", value " << i;
        }
    }
}

// drift_at_most() says yes only where phase_drift() is within the limit: offsets at rest, drifting
// slowly, fast, with outliers and steps, long and short.
TEST(TimelineKernels, TheDriftCheckShortcutNeverPassesADriftOverItsLimit) {
    std::mt19937_64 rng(14);
    int settled = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const std::size_t n = std::array<std::size_t, 5>{10, 33, 300, 5000, 40000}[rng() % 5];
        const double drift = std::array<double, 5>{0, 1e-9, 3e-7, 2e-6, 1e-4}[rng() % 5];
        const double jitter = std::array<double, 3>{10, 2000, 1e6}[rng() % 3];
        std::normal_distribution<double> noise(0, jitter);
        std::vector<double> phase(n);
        std::vector<std::int64_t> t(n);
        for (std::size_t i = 0; i < n; ++i) {
            phase[i] = std::round(drift * 1e9 * static_cast<double>(i) + noise(rng));
            phase[i] += rng() % 500 == 0 ? 1e8 : 0;
            t[i] = static_cast<std::int64_t>(i) * 1'000'000'000 +
                   (rng() % 50 == 0 ? 1'000'000'000 : 0);
            if (i > 0 && t[i] <= t[i - 1]) {
                t[i] = t[i - 1] + 1'000'000'000;
            }
        }
        const detail::PulseIndex index(t, n, 1e9);
        const double exact = detail::phase_drift(phase, index, 1'000'000'000);
        for (const double limit : {1e-6, 1e-8, 0.125 / static_cast<double>(n)}) {
            if (detail::drift_at_most(phase, index, 1'000'000'000, limit)) {
                ++settled;
                EXPECT_LE(std::abs(exact), limit) << "trial " << trial << ", n " << n;
            }
        }
    }
    EXPECT_GT(settled, 100);  // the shortcut is taken, not only sound
}

}  // namespace
}  // namespace ppsbench::stats
