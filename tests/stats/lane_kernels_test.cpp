// SPDX-License-Identifier: GPL-2.0-or-later
// The kernels that run in lanes (lanes.hpp) must give the bits of the plain loops they replace,
// in both their forms (AVX2 where the CPU has it, and the baseline every x86-64 and aarch64
// runs), for every length around their block and lane boundaries.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "stats/detrend_detail.hpp"
#include "stats/lanes.hpp"
#include "stats/train_detail.hpp"

namespace ppsbench::stats::detail {
namespace {

bool same_bits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// Runs the test body once per kernel form the machine has.
template <typename Body>
void in_each_form(Body body) {
    for (const bool baseline : {false, true}) {
        force_baseline_lanes(baseline);
        SCOPED_TRACE(baseline ? "baseline form" : "native form");
        body();
    }
    force_baseline_lanes(false);
}

// Timestamps a period apart with jitter, a missed pulse now and then (a new run of the pulse
// index) and, if `back`, a pulse that steps back (an index that falls).
std::vector<std::int64_t> train(std::size_t n, std::mt19937_64& rng, bool back) {
    std::vector<std::int64_t> t;
    std::int64_t at = 1'700'000'000'000'000'000;
    std::normal_distribution<double> jitter(0.0, 3000.0);
    for (std::size_t i = 0; i < n; ++i) {
        at += 1'000'000'000 * (rng() % 97 == 0 ? 2 : 1);
        if (back && i == n / 2) {
            at -= 3'000'000'000;
        }
        t.push_back(at + static_cast<std::int64_t>(jitter(rng)));
    }
    return t;
}

// The degree-1 fit over the pulse index's runs (accumulate_linear, subtract_linear) against the
// generic per-value loop over the same index given densely.
TEST(LaneKernels, TheLinearFitOverRunsIsTheGenericFitToTheBit) {
    std::mt19937_64 rng(11);
    for (const std::size_t n : {2UL, 3UL, 4UL, 5UL, 7UL, 4095UL, 4096UL, 4097UL, 8193UL, 30001UL}) {
        for (const bool back : {false, true}) {
            const auto t = train(n, rng, back);
            const PulseIndex index(t, t.size(), 1e9);
            const std::vector<std::int64_t> dense = index.dense();
            std::vector<double> phase(n);
            for (std::size_t i = 0; i < n; ++i) {
                phase[i] = static_cast<double>(t[i] - t[0] - dense[i] * 1'000'000'000);
            }
            const Detrended generic = detrend_series(phase, SpanIndex{dense}, 1);
            in_each_form([&] {
                const Detrended runs = detrend_series(phase, index, 1);
                SCOPED_TRACE(::testing::Message() << "n = " << n << (back ? ", step back" : ""));
                ASSERT_EQ(runs.fit.coefficients.size(), 2U);
                EXPECT_TRUE(same_bits(runs.fit.coefficients[0], generic.fit.coefficients[0]));
                EXPECT_TRUE(same_bits(runs.fit.coefficients[1], generic.fit.coefficients[1]));
                for (std::size_t i = 0; i < n; ++i) {
                    ASSERT_TRUE(same_bits(runs.residuals_ns[i], generic.residuals_ns[i]))
                        << "pulse " << i << ": " << runs.residuals_ns[i] << " vs "
                        << generic.residuals_ns[i];
                }
            });
        }
    }
}

}  // namespace
}  // namespace ppsbench::stats::detail
