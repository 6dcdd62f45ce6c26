// SPDX-License-Identifier: GPL-2.0-or-later
// `calibrate`'s estimator: the constant as chrony's refclock filter would average the lateness,
// and the refusals when one constant would be meaningless.
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "ppsbench/analysis/calibration.hpp"
#include "ppsbench/core/random.hpp"

namespace ppsbench::analysis {
namespace {

Lateness lateness_of(std::vector<double> late_ns) {
    Lateness l;
    l.reference = "sim:reference";
    for (std::size_t i = 0; i < late_ns.size(); ++i) {
        l.edge_ns.push_back(static_cast<std::int64_t>(i) * 1'000'000'000);
    }
    l.late_ns = std::move(late_ns);
    return l;
}

// A hard-IRQ-like path: L late, bounded symmetric noise.
std::vector<double> symmetric(double late_ns, std::size_t n, std::uint64_t seed = 1) {
    core::Random random(seed);
    std::vector<double> v;
    for (std::size_t i = 0; i < n; ++i) {
        v.push_back(late_ns + random.uniform(-2588, 2588) + random.uniform(-2588, 2588));
    }
    return v;
}

// A threaded path: a wake-up delay that can only add, right-skewed (Beta(1, 3) by inversion).
std::vector<double> skewed(double late_ns, std::size_t n, std::uint64_t seed = 1) {
    core::Random random(seed);
    std::vector<double> v;
    for (std::size_t i = 0; i < n; ++i) {
        v.push_back(late_ns + 34'150 * (1.0 - std::cbrt(1.0 - random.uniform())));
    }
    return v;
}

TEST(ChronyFilter, AveragesTheSamplesAroundTheMedianAsSamplefiltDoes) {
    // 16 samples: from = clamp(⌊16·0.2⌋ = 3, 1, 7): 3 dropped each side, 10 averaged.
    std::vector<double> sixteen(16);
    std::iota(sixteen.begin(), sixteen.end(), 1.0);
    sixteen[15] = 1e6;  // a gross outlier at the top changes nothing
    EXPECT_DOUBLE_EQ(chrony_filtered_offset(sixteen), (4.0 + 13.0) / 2);
    // 5 samples: ⌊1⌋ → one each side; 3: ⌊0.6⌋ clamped up to 1; 2 and 1: all of them.
    std::vector<double> five{5, 1, 4, 2, 100};
    EXPECT_DOUBLE_EQ(chrony_filtered_offset(five), (2.0 + 4.0 + 5.0) / 3);
    std::vector<double> three{9, 1, 4};
    EXPECT_DOUBLE_EQ(chrony_filtered_offset(three), 4.0);
    std::vector<double> two{1, 4};
    EXPECT_DOUBLE_EQ(chrony_filtered_offset(two), 2.5);
}

TEST(Calibrate, FindsAConstantLatenessWithinItsUncertainty) {
    for (const double late : {12'000.0, -3'000.0, 117'000.0}) {
        for (const std::uint64_t seed : {1U, 2U, 3U}) {
            const auto c = calibrate(lateness_of(symmetric(late, 3600, seed)));
            ASSERT_EQ(c.refusal, CalibrationRefusal::none) << late;
            EXPECT_EQ(c.polls, 225U);
            EXPECT_LE(std::abs(c.constant_ns - late), c.uncertainty_ns) << late << " " << seed;
            EXPECT_LT(c.uncertainty_ns, 200) << "an hour pins it to a few hundred ns";
        }
    }
}

// Metamorphic: a path D later gives a constant D larger and the same uncertainty and verdict.
TEST(Calibrate, ShiftingTheLatenessShiftsTheConstantOnly) {
    const auto base = skewed(5'000, 1600);
    auto later = base;
    for (auto& x : later) {
        x += 12'000;
    }
    const auto a = calibrate(lateness_of(base));
    const auto b = calibrate(lateness_of(later));
    EXPECT_NEAR(b.constant_ns - a.constant_ns, 12'000, 1e-6);
    EXPECT_NEAR(b.uncertainty_ns, a.uncertainty_ns, 1e-6);
    EXPECT_EQ(a.refusal, b.refusal);
}

// On a skewed (threaded) path chrony's filter is neither the mean nor the median: the constant
// is the polls' trimmed means, computed here independently.
TEST(Calibrate, OnASkewedPathIsChronysEstimateNotTheMeanOrMedian) {
    const auto late = skewed(0, 3200);
    const auto c = calibrate(lateness_of(late));
    ASSERT_EQ(c.refusal, CalibrationRefusal::none);
    double sum = 0;
    for (std::size_t poll = 0; poll < 200; ++poll) {
        std::vector<double> group(late.begin() + static_cast<std::ptrdiff_t>(poll * 16),
                                  late.begin() + static_cast<std::ptrdiff_t>(poll * 16 + 16));
        std::sort(group.begin(), group.end());
        sum += std::accumulate(group.begin() + 3, group.end() - 3, 0.0) / 10;
    }
    EXPECT_NEAR(c.constant_ns, sum / 200, 1e-6);
    EXPECT_GT(std::abs(c.constant_ns - c.mean_ns), 500) << "the mean is pulled by the tail";
    EXPECT_GT(std::abs(c.constant_ns - c.median_ns), 300);
    EXPECT_LT(c.separation, 4.0) << "skewed is not bimodal";
}

TEST(Calibrate, RefusesTooFewPulsesForEightPolls) {
    const auto c = calibrate(lateness_of(symmetric(12'000, 127)));
    EXPECT_EQ(c.refusal, CalibrationRefusal::too_few_pulses);
    EXPECT_EQ(c.polls, 7U);
    EXPECT_EQ(calibrate(lateness_of(symmetric(12'000, 128))).refusal, CalibrationRefusal::none);
    CalibrationSettings one_sample_polls;
    one_sample_polls.filter_samples = 1;
    EXPECT_EQ(calibrate(lateness_of(symmetric(12'000, 127)), one_sample_polls).refusal,
              CalibrationRefusal::none);
}

TEST(Calibrate, RefusesALatenessThatDriftedOverTheRun) {
    auto late = symmetric(6'200, 1800);
    const auto later = symmetric(11'700, 1800, 9);  // the Pi 5 with and without PCIe L1
    late.insert(late.end(), later.begin(), later.end());
    const auto c = calibrate(lateness_of(late));
    EXPECT_EQ(c.refusal, CalibrationRefusal::drifting);
    EXPECT_NEAR(c.first_half_ns, 6'200, 300);
    EXPECT_NEAR(c.second_half_ns, 11'700, 300);
    // A wander within --max-drift is one constant.
    auto small = symmetric(6'200, 1800);
    const auto nudged = symmetric(6'500, 1800, 9);
    small.insert(small.end(), nudged.begin(), nudged.end());
    EXPECT_EQ(calibrate(lateness_of(small)).refusal, CalibrationRefusal::none);
}

TEST(Calibrate, RefusesTwoGroupsOfLatenessInterleaved) {
    core::Random random(4);
    std::vector<double> late;
    for (int i = 0; i < 3600; ++i) {
        // Most edges hard-IRQ-timestamped at 5 µs, a third at 40 µs (an IRQ thread).
        late.push_back((random.chance(1.0 / 3) ? 40'000 : 5'000) + 500 * random.normal());
    }
    const auto c = calibrate(lateness_of(late));
    EXPECT_EQ(c.refusal, CalibrationRefusal::bimodal);
    EXPECT_GT(c.separation, 20);
    EXPECT_NEAR(c.minor_share, 1.0 / 3, 0.03);
    // Neither a symmetric nor a skewed single mode is taken for two.
    EXPECT_EQ(calibrate(lateness_of(symmetric(0, 3600))).refusal, CalibrationRefusal::none);
    EXPECT_EQ(calibrate(lateness_of(skewed(0, 3600))).refusal, CalibrationRefusal::none);
    // A rare second group (under a tenth) is left to the filter, which drops it.
    std::vector<double> rare;
    for (int i = 0; i < 3600; ++i) {
        rare.push_back((i % 20 == 0 ? 40'000 : 5'000) + 500 * random.normal());
    }
    EXPECT_EQ(calibrate(lateness_of(rare)).refusal, CalibrationRefusal::none);
}

// A PHC timestamps on 8 ns ticks: a lateness that sits between two ticks reads as two values.
// That is one constant with a tick's resolution, not two groups infinitely far apart.
TEST(Calibrate, ALatenessOnTwoAdjacentTicksIsOneConstantNotTwoGroups) {
    core::Random random(5);
    std::vector<double> ticks;
    for (int i = 0; i < 1600; ++i) {
        ticks.push_back(random.chance(0.4) ? 12'008 : 12'000);
    }
    const auto c = calibrate(lateness_of(ticks));
    ASSERT_EQ(c.refusal, CalibrationRefusal::none);
    EXPECT_DOUBLE_EQ(c.quantisation_ns, 8);
    // Each group's spread floored at 8²/12: D = √2·8/√(2·64/12) = √12, a uniform split in two.
    EXPECT_NEAR(c.separation, std::sqrt(12.0), 1e-9);
    EXPECT_GE(c.constant_ns, 12'000);
    EXPECT_LE(c.constant_ns, 12'008);
    EXPECT_GE(c.uncertainty_ns, 4) << "no finer than half a tick";
}

TEST(Calibrate, AConstantLatenessIsItsOwnConstant) {
    auto l = lateness_of(std::vector<double>(640, 7'000));
    l.reference_uncertainty_ns = 210;
    const auto c = calibrate(l);
    ASSERT_EQ(c.refusal, CalibrationRefusal::none);
    EXPECT_DOUBLE_EQ(c.constant_ns, 7'000);
    EXPECT_DOUBLE_EQ(c.separation, 0) << "one value is one group";
    EXPECT_DOUBLE_EQ(c.quantisation_ns, 0);
    EXPECT_DOUBLE_EQ(c.uncertainty_ns, 210) << "no spread and no step: the reference's alone";
}

// Metamorphic: rounding a lateness to a PHC's 8 ns ticks moves the constant by less than a
// tick, keeps the verdict, and the interval still holds the unrounded constant.
TEST(Calibrate, QuantisingTheLatenessKeepsTheConstantWithinAStep) {
    for (const std::uint64_t seed : {1U, 2U, 3U, 4U}) {
        for (const double spread : {3.0, 40.0, 2'000.0}) {
            core::Random random(seed);
            std::vector<double> late;
            std::vector<double> ticked;
            for (int i = 0; i < 1600; ++i) {
                late.push_back(9'003 + spread * random.normal());
                ticked.push_back(8 * std::round(late.back() / 8));
            }
            const auto a = calibrate(lateness_of(late));
            const auto b = calibrate(lateness_of(ticked));
            EXPECT_EQ(a.refusal, CalibrationRefusal::none) << spread;
            EXPECT_EQ(b.refusal, CalibrationRefusal::none) << spread;
            EXPECT_LE(std::abs(b.constant_ns - a.constant_ns), 8) << spread << " " << seed;
            EXPECT_LE(std::abs(b.constant_ns - a.constant_ns), b.uncertainty_ns + a.uncertainty_ns)
                << spread << " " << seed;
            EXPECT_GE(b.uncertainty_ns, 4);
        }
    }
}

// The PCIe link state held for the middle of a run: 12 µs late, then 22 µs, then 12 µs again.
// The halves are equal; one constant (+17 µs) would be 5 µs off at both ends.
TEST(Calibrate, RefusesALatenessThatSwingsAndComesBack) {
    std::vector<double> late = symmetric(12'000, 800, 1);
    for (const auto& [level, seed] : {std::pair{22'000.0, 2U}, std::pair{12'000.0, 3U}}) {
        const auto part = symmetric(level, level == 22'000 ? 1600 : 800, seed);
        late.insert(late.end(), part.begin(), part.end());
    }
    const auto c = calibrate(lateness_of(late));
    EXPECT_NEAR(c.first_half_ns, c.second_half_ns, 300) << "the halves cannot see it";
    EXPECT_EQ(c.refusal, CalibrationRefusal::drifting);
    ASSERT_EQ(c.quarters_ns.size(), 4U);
    EXPECT_NEAR(c.quarters_ns[0], 12'000, 300);
    EXPECT_NEAR(c.quarters_ns[1], 22'000, 300);
    EXPECT_NEAR(c.quarters_ns[2], 22'000, 300);
    EXPECT_NEAR(c.quarters_ns[3], 12'000, 300);
}

// Metamorphic: the run played backwards (whole polls) has the same polls, so the same constant,
// interval and verdict; its quarters come in reverse.
TEST(Calibrate, ARunPlayedBackwardsGivesTheSameConstantAndVerdict) {
    std::vector<std::vector<double>> runs{symmetric(3'000, 1600), skewed(8'000, 3200)};
    auto drifted = symmetric(6'200, 800);
    const auto later = symmetric(11'700, 800, 9);
    drifted.insert(drifted.end(), later.begin(), later.end());
    runs.push_back(drifted);
    for (const auto& run : runs) {
        std::vector<double> backwards;
        for (std::size_t poll = run.size() / 16; poll-- > 0;) {
            backwards.insert(backwards.end(), run.begin() + static_cast<std::ptrdiff_t>(poll * 16),
                             run.begin() + static_cast<std::ptrdiff_t>(poll * 16 + 16));
        }
        const auto a = calibrate(lateness_of(run));
        const auto b = calibrate(lateness_of(backwards));
        EXPECT_EQ(a.refusal, b.refusal);
        EXPECT_NEAR(a.constant_ns, b.constant_ns, 1e-6);
        EXPECT_NEAR(a.uncertainty_ns, b.uncertainty_ns, 1e-6);
        ASSERT_EQ(a.quarters_ns.size(), b.quarters_ns.size());
        for (std::size_t q = 0; q < a.quarters_ns.size(); ++q) {
            EXPECT_NEAR(a.quarters_ns[q], b.quarters_ns[a.quarters_ns.size() - 1 - q], 1e-6);
        }
    }
}

}  // namespace
}  // namespace ppsbench::analysis
