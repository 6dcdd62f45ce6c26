// SPDX-License-Identifier: GPL-2.0-or-later
#include "stats/detrend_spans.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "numpy_oracle.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "pulse_train.hpp"

namespace ppsbench::stats {
namespace {

using core::ns_per_second;
constexpr std::int64_t near_2_62 = (std::int64_t{1} << 62) - 12345 * ns_per_second;

// numpy.polyfit of the timestamps against the pulse index; prints the residuals. Fitting
// t − t_0 directly in float64 leaves numpy ~2e-3 ns of rounding at 2e12 ns of elapsed time, so
// the oracle first subtracts t_0 + k·P in exact int64 (a linear function of k, which a fit of
// degree >= 1 absorbs without changing any residual) and fits what remains.
constexpr const char* polyfit_script = R"(
d = np.loadtxt(sys.argv[1], dtype=np.int64, ndmin=2)
k, t = d[:, 0], d[:, 1]
y = (t - t[0] - k * np.int64(sys.argv[3])).astype(np.float64)
deg = int(sys.argv[2])
c = np.polyfit(k.astype(np.float64), y, deg)
print(' '.join(repr(float(v)) for v in (y - np.polyval(c, k))))
)";

void expect_residuals_match_numpy(const std::vector<std::int64_t>& t, std::int64_t period,
                                  int degree) {
    const Detrended ours = detrend_timestamps(t, period, degree);
    const auto index = pulse_indices(t, estimate_period_ns(t, period));
    std::string data;
    for (std::size_t i = 0; i < t.size(); ++i) {
        data += std::to_string(index[i]) + " " + std::to_string(t[i]) + "\n";
    }
    const auto numpy =
        test::run_numpy(polyfit_script, data, {std::to_string(degree), std::to_string(period)});
    ASSERT_EQ(numpy.size(), t.size()) << "numpy script failed";
    for (std::size_t i = 0; i < t.size(); ++i) {
        ASSERT_NEAR(ours.residuals_ns[i], numpy[i], 1e-6) << "pulse " << i;
    }
}

TEST(DetrendVsNumpy, FrequencyOffsetAndJitterNear2To62Ns) {
    PPSBENCH_REQUIRE_NUMPY();
    test::TestRandom rng(5);
    // 37 ppm fast, 2 µs jitter, two missed pulses: timestamps near 2^62 ns (year 2116).
    auto pulses = test::pulse_train(2000, near_2_62, ns_per_second,
                                    [&](std::size_t k) { return 37e3 * k + rng.normal(0, 2000); });
    pulses.erase(pulses.begin() + 700);
    pulses.erase(pulses.begin() + 1500);
    expect_residuals_match_numpy(test::timestamps(pulses), ns_per_second, 1);
}

TEST(DetrendVsNumpy, QuadraticDriftDegreeTwo) {
    PPSBENCH_REQUIRE_NUMPY();
    test::TestRandom rng(6);
    auto pulses = test::pulse_train(3000, near_2_62, ns_per_second, [&](std::size_t k) {
        const double kk = static_cast<double>(k);
        return -400.0 + 3.5 * kk + 0.004 * kk * kk + rng.normal(0, 50);
    });
    expect_residuals_match_numpy(test::timestamps(pulses), ns_per_second, 2);
}

TEST(DetrendVsNumpy, TwoAndThreePoints) {
    PPSBENCH_REQUIRE_NUMPY();
    expect_residuals_match_numpy({5 * ns_per_second + 10, 6 * ns_per_second - 30}, ns_per_second,
                                 1);
    expect_residuals_match_numpy(
        {5 * ns_per_second + 10, 6 * ns_per_second - 30, 7 * ns_per_second + 3}, ns_per_second, 2);
}

TEST(Detrend, PureFrequencyOffsetVanishes) {
    // A clock 50 ppm slow: each interval is 999'950'000 ns. Nothing but the rate: residuals 0.
    std::vector<std::int64_t> t;
    for (std::int64_t k = 0; k < 100'000; ++k) {
        t.push_back(near_2_62 + k * (ns_per_second - 50'000));
    }
    const Detrended d = detrend_timestamps(t, ns_per_second, 1);
    for (double r : d.residuals_ns) {
        ASSERT_NEAR(r, 0.0, 1e-5);  // 10 fs: rounding on 5e9 ns of accumulated drift
    }
    EXPECT_NEAR(d.fit.slope(0), -50'000.0, 1e-6);  // ns per pulse relative to P
}

TEST(PulseIndices, AMissedPulseLeavesAHoleInsteadOfBendingTheFit) {
    const std::vector<std::int64_t> t = {0, ns_per_second, 3 * ns_per_second + 7,
                                         4 * ns_per_second};
    EXPECT_EQ(pulse_indices(t, ns_per_second), (std::vector<std::int64_t>{0, 1, 3, 4}));
}

TEST(PulseIndices, CountWithTheClocksOwnPeriod) {
    // 200 ppm fast over 10000 pulses is 2 s of drift: rounding (t − t0)/P_nominal would invent
    // two missed pulses; the estimated period does not.
    std::vector<std::int64_t> t;
    for (std::int64_t k = 0; k < 10'000; ++k) {
        t.push_back(k * (ns_per_second + 200'000));
    }
    const double period = estimate_period_ns(t, ns_per_second);
    EXPECT_DOUBLE_EQ(period, ns_per_second + 200'000.0);
    EXPECT_EQ(pulse_indices(t, period).back(), 9'999);
}

TEST(Detrend, RejectsDegreesOtherThanOneAndTwo) {
    const std::vector<std::int64_t> t = {0, ns_per_second, 2 * ns_per_second};
    EXPECT_THROW(detrend_timestamps(t, ns_per_second, 0), core::UsageError);
    EXPECT_THROW(detrend_timestamps(t, ns_per_second, 3), core::UsageError);
}

}  // namespace
}  // namespace ppsbench::stats
