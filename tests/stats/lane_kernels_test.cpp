// SPDX-License-Identifier: GPL-2.0-or-later
// The kernels that run in lanes (lanes.hpp) must give the bits of the plain loops they replace,
// in both their forms (AVX2 where the CPU has it, and the baseline every x86-64 and aarch64
// runs), for every length around their block and lane boundaries.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <vector>

#include "stats/detrend_detail.hpp"
#include "stats/lanes.hpp"
#include "stats/phase_buffer.hpp"
#include "stats/train_detail.hpp"
#include "stats/value_scans.hpp"

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

// Values with ties, fractions, values on bin edges, infinities and a NaN.
std::vector<double> awkward_values(std::size_t n, std::mt19937_64& rng) {
    std::normal_distribution<double> normal(0.0, 50.0);
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        switch (rng() % 8) {
            case 0:
                v[i] = std::round(normal(rng) / 5.0) * 5.0;  // on an edge
                break;
            case 1:
                v[i] = 1e6 * (rng() % 2 == 0 ? 1 : -1);  // far out
                break;
            default:
                v[i] = normal(rng);
        }
    }
    if (n > 3) {
        v[n / 3] = std::numeric_limits<double>::infinity();
        v[n / 2] = -std::numeric_limits<double>::infinity();
        v[n - 1] = std::numeric_limits<double>::quiet_NaN();
    }
    return v;
}

TEST(LaneKernels, BinCountsAreThoseOfThePlainRule) {
    std::mt19937_64 rng(12);
    for (const std::size_t n : {0UL, 1UL, 3UL, 4UL, 5UL, 17UL, 1000UL, 4099UL}) {
        const auto v = awkward_values(n, rng);
        std::vector<std::uint64_t> expected(40, 0);
        std::uint64_t under = 0;
        std::uint64_t over = 0;
        for (const double x : v) {
            if (std::isnan(x)) {
                continue;
            }
            const double position = std::floor((x + 100.0) / 5.0);
            if (position < 0.0) {
                ++under;
            } else if (position >= 40.0) {
                ++over;
            } else {
                ++expected[static_cast<std::size_t>(position)];
            }
        }
        in_each_form([&] {
            std::vector<std::uint64_t> counts(40, 0);
            BinCounts bins{counts};
            count_bins(v, -100.0, 5.0, bins);
            EXPECT_EQ(counts, expected) << "n = " << n;
            EXPECT_EQ(bins.underflow, under);
            EXPECT_EQ(bins.overflow, over);
        });
    }
}

TEST(LaneKernels, TheOutlierScanFindsThePositionsOfThePlainTest) {
    std::mt19937_64 rng(13);
    for (const std::size_t n : {0UL, 1UL, 15UL, 16UL, 17UL, 63UL, 1000UL, 4099UL}) {
        const auto v = awkward_values(n, rng);
        std::vector<std::size_t> expected;
        for (std::size_t i = 0; i < n; ++i) {
            if (std::abs(v[i] - 3.0) > 120.0) {
                expected.push_back(i);
            }
        }
        in_each_form([&] {
            std::vector<std::size_t> found;
            indices_beyond(v, 0, 3.0, 120.0, found);
            EXPECT_EQ(found, expected) << "n = " << n;
        });
    }
}

// A window's gathered values are appended four lanes at a time (pack_lanes): for each of the 16
// masks the lanes set are written first, in lane order, whatever the form, and the count says
// how many. NaN, −0 and infinities pass through as bits.
// (By reference: a vector passed by value from a baseline function to an AVX2 one would travel
// in memory on one side and in a register on the other. Always inlined: the AVX2 form's
// builtins compile only inside packed_avx2, which has the target; at -O0 a template of its own
// would not be inlined there.)
template <typename Form>
[[gnu::always_inline]] inline std::vector<double> packed(const Lanes& v, const LaneMask& m) {
    double out[lane_count + 1];
    std::fill(std::begin(out), std::end(out), 42.0);
    const std::size_t k = pack_lanes<Form>(out, v, m);
    EXPECT_EQ(out[lane_count], 42.0) << "wrote past four lanes";
    return {out, out + k};
}

PPSBENCH_AVX2_TARGET std::vector<double> packed_avx2(const Lanes& v, const LaneMask& m) {
    return packed<Avx2Form>(v, m);
}

TEST(LaneKernels, PackingKeepsTheMaskedLanesInOrder) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const Lanes v = {-0.0, 1.5, nan, -std::numeric_limits<double>::infinity()};
    for (unsigned bits = 0; bits < 16; ++bits) {
        SCOPED_TRACE(::testing::Message() << "mask " << bits);
        LaneMask m = {};
        std::vector<double> expected;
        for (std::size_t lane = 0; lane < lane_count; ++lane) {
            if ((bits >> lane & 1U) != 0) {
                m[lane] = -1;
                expected.push_back(v[lane]);
            }
        }
        std::vector<std::vector<double>> forms = {packed<BaselineForm>(v, m)};
        if (lanes_avx2()) {
            forms.push_back(packed_avx2(v, m));
        }
        for (const auto& got : forms) {
            ASSERT_EQ(got.size(), expected.size());
            for (std::size_t k = 0; k < got.size(); ++k) {
                EXPECT_TRUE(same_bits(got[k], expected[k])) << "value " << k;
            }
        }
    }
}

// Whole nanoseconds (int32) widened to double with a reference added: the value of the scalar
// conversion to the bit, for the int32 extremes and every count around the four lanes.
TEST(LaneKernels, WideningWholeNanosecondsIsTheScalarConversion) {
    std::mt19937_64 rng(5);
    std::vector<std::int32_t> whole = {std::numeric_limits<std::int32_t>::min(),
                                       std::numeric_limits<std::int32_t>::max(), 0, -1, 1};
    for (std::size_t i = 0; i < 40; ++i) {
        whole.push_back(static_cast<std::int32_t>(rng()));
    }
    for (const double reference : {0.0, -0.0, 123456789.0, -1.5e17, 0.25}) {
        in_each_form([&] {
            for (std::size_t count = 0; count <= whole.size(); ++count) {
                std::vector<double> out(count + 1, 42.0);
                widen_whole(whole.data(), out.data(), count, reference);
                for (std::size_t i = 0; i < count; ++i) {
                    ASSERT_TRUE(same_bits(out[i], static_cast<double>(whole[i]) + reference))
                        << "count " << count << ", value " << i << ", reference " << reference;
                }
                EXPECT_EQ(out[count], 42.0) << "wrote past count " << count;
            }
        });
    }
}

}  // namespace
}  // namespace ppsbench::stats::detail
