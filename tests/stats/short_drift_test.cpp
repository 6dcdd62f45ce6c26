// SPDX-License-Identifier: GPL-2.0-or-later
// Drift judged at any length: a run of 3 pulses or more whose phase ramps is flagged as a clock
// running free (its headline the detrended residuals) once the ramp stands clear of the jitter,
// and a run too short to tell says so; a missed pulse in a drifting run is no clock step.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "../../src/stats/drift.hpp"
#include "ppsbench/core/random.hpp"
#include "ppsbench/stats/analyze.hpp"
#include "pulse_train.hpp"

namespace ppsbench::stats {
namespace {

constexpr std::int64_t start_ns = 1'767'225'600'000'000'000;  // 2026-01-01, a whole second

bool has_note(const RunStatistics& r, const std::string& text) {
    for (const auto& note : r.notes) {
        if (note.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

// Student's t density, integrated by Simpson's rule from 0 to x: the table's quantiles must
// leave 0.0005 in each tail (an independent reference: no table, only the density's formula).
double t_cdf_from_zero(double x, double nu) {
    const double c = std::exp(std::lgamma((nu + 1) / 2) - std::lgamma(nu / 2)) /
                     std::sqrt(nu * 3.14159265358979323846);
    const auto f = [&](double t) { return c * std::pow(1 + t * t / nu, -(nu + 1) / 2); };
    const int steps = 400000;
    const double h = x / steps;
    double sum = f(0) + f(x);
    for (int i = 1; i < steps; ++i) {
        sum += (i % 2 == 1 ? 4 : 2) * f(i * h);
    }
    return sum * h / 3;
}

TEST(ShortRunDrift, TheTTableLeavesOneInTwoThousandInEachTail) {
    for (std::size_t nu = 1; nu <= 29; ++nu) {
        EXPECT_NEAR(t_cdf_from_zero(detail::t_two_sided_1e3(nu), static_cast<double>(nu)), 0.4995,
                    2e-6)
            << nu << " degrees of freedom";
    }
}

// Gaussian jitter of σ, and the same pulses with a ramp of `ppm` added (whole ns a period).
std::vector<double> jitter(std::size_t n, double sigma_ns, std::uint64_t seed) {
    core::Random rng(seed);
    std::vector<double> e(n);
    for (auto& v : e) {
        v = sigma_ns * rng.normal();
    }
    return e;
}

RunStatistics analyzed(const std::vector<double>& e, double ppm, std::size_t skip = SIZE_MAX) {
    auto pulses = test::pulse_train(e.size(), start_ns, 1'000'000'000, [&](std::size_t k) {
        return e[k] + ppm * 1e3 * static_cast<double>(k);
    });
    if (skip < pulses.size()) {
        pulses.erase(pulses.begin() + static_cast<std::ptrdiff_t>(skip));
    }
    return analyze(pulses, AnalysisOptions{});
}

// The metamorphic rule: a line added to the phase changes no residual of the line fitted to it,
// so once the ramp is flagged the headline σ is the detrended σ of the run without it; and a run
// whose ramp is not flagged says that its drift was not judged. With 100 ns of jitter a ±10 ppm
// ramp is flagged from 4 pulses on (the t test's threshold at 4 pulses is about 1.4 ppm there).
TEST(ShortRunDrift, AddingARampToAnyRunOfThreeOrMoreIsFlaggedAndLeavesTheResiduals) {
    for (std::size_t n = 3; n <= 64; ++n) {
        for (const double ppm : {10.0, -10.0}) {
            SCOPED_TRACE(std::to_string(n) + " pulses, " + std::to_string(ppm) + " ppm");
            const auto e = jitter(n, 100, 40 + n);
            const RunStatistics a = analyzed(e, 0);
            const RunStatistics b = analyzed(e, ppm);
            EXPECT_FALSE(a.free_running);
            if (b.free_running) {
                EXPECT_FALSE(b.offset_ns.has_value());
                EXPECT_NEAR(b.headline().stddev, a.detrended_ns.stddev,
                            1e-9 * a.detrended_ns.stddev + 1e-6);
                EXPECT_TRUE(b.clock_steps.empty());
            } else {
                EXPECT_FALSE(b.drift_judged);
                EXPECT_TRUE(has_note(b, "drift not judged below"));
            }
            if (n >= 4) {
                EXPECT_TRUE(b.free_running);
            }
        }
    }
}

// Two pulses always lie on a line: nothing to judge a slope against, and the report says so.
TEST(ShortRunDrift, UnderThreePulsesTheDriftIsNotJudgedAndTheNoteSaysSo) {
    for (std::size_t n = 1; n <= 2; ++n) {
        const RunStatistics r = analyzed(jitter(n, 100, 7), 50);
        EXPECT_FALSE(r.free_running);
        EXPECT_FALSE(r.drift_judged);
        EXPECT_TRUE(has_note(r, "drift not judged")) << n;
    }
    EXPECT_TRUE(analyzed(jitter(40, 100, 7), 0).drift_judged);
}

// A ppstest paste of 7 lines on a Pi 5 + i226 running +5 ppm off, σ 733 ns: main reported the
// ramp, σ 10.8 µs, as jitter (no drift test under 32 pulses).
TEST(ShortRunDrift, ASevenPulseRampIsTheClockRunningFreeNotJitter) {
    const std::vector<double> e = {310, -820, 1040, -150, -690, 880, -570};
    const RunStatistics r = analyzed(e, 5);
    EXPECT_TRUE(r.free_running);
    EXPECT_TRUE(r.drift_judged);
    EXPECT_NEAR(r.headline().stddev, analyzed(e, 0).detrended_ns.stddev, 1e-6);
    EXPECT_LT(r.headline().stddev, 1000);
}

// 12 edges at −9.3 ppm, σ 236 ns, one pulse missing: main invented a −9.2 µs clock step at the
// gap (one period's drift, the drift counted by samples instead of periods).
TEST(ShortRunDrift, AMissedPulseInADriftingRunIsNoClockStep) {
    for (std::size_t n : {12U, 40U, 300U}) {
        SCOPED_TRACE(std::to_string(n) + " pulses");
        const auto e = jitter(n, 236, 99);
        const RunStatistics r = analyzed(e, -9.3, n / 2);
        EXPECT_TRUE(r.free_running);
        EXPECT_TRUE(r.clock_steps.empty());
        EXPECT_EQ(r.missed_pulses, 1U);
    }
}

// The threshold is t(n − 2)·s/√Sxx over P, with Sxx = n(n² − 1)/12 for consecutive pulses and s
// the residual scatter about the fitted line: here computed from those closed forms on jitter
// whose fitted line is flat by symmetry (…, −2, −1, 0, 1, 2, … µs squared about zero: an even
// function of the centred pulse number, so the slope is 0 and s² = Σe²/(n − 2)).
TEST(ShortRunDrift, TheThresholdIsTheSlopesIntervalAgainstTheResidualScatter) {
    for (std::size_t n : {3U, 5U, 10U, 31U}) {
        std::vector<double> phase(n);
        std::vector<std::int64_t> t(n);
        double sum_squares = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const double centred = static_cast<double>(i) - static_cast<double>(n - 1) / 2;
            phase[i] = 1000.0 * (centred * centred - static_cast<double>(n * n - 1) / 12);
            sum_squares += phase[i] * phase[i];
            t[i] = start_ns + static_cast<std::int64_t>(i) * 1'000'000'000;
        }
        const detail::PulseIndex index(t, n, 1e9);
        const auto d =
            detail::short_run_drift(std::span<const double>(phase), index, 1'000'000'000);
        const auto nn = static_cast<double>(n);
        const double s = std::sqrt(sum_squares / (nn - 2));
        const double expected =
            detail::t_two_sided_1e3(n - 2) * s / std::sqrt(nn * (nn * nn - 1) / 12);
        EXPECT_TRUE(d.judged);
        EXPECT_NEAR(d.slope, 0.0, 1e-18);
        EXPECT_NEAR(d.smallest_detectable, expected * 1e-9, 1e-12 * expected * 1e-9) << n;
    }
}

}  // namespace
}  // namespace ppsbench::stats
