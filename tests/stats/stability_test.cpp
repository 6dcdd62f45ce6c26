// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/stability.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "reference_data.hpp"

namespace ppsbench::stats {
namespace {

// The NBS14 1000-point test set of NIST SP 1065 (W. J. Riley, "Handbook of Frequency Stability
// Analysis", NIST Special Publication 1065, 2008, section 12.4 "1000-point test suite"):
// n(i+1) = 16807·n(i) mod 2147483647, n(0) = 1234567890, y(i) = n(i)/2147483647. These are
// fractional-frequency values at tau0 = 1 s; phase is their running sum, x(0) = 0, as the
// handbook integrates them (1001 phase points).
std::vector<double> nbs14_phase() {
    std::vector<double> phase{0.0};
    std::uint64_t n = 1234567890;
    for (int i = 0; i < 1000; ++i) {
        phase.push_back(phase.back() + static_cast<double>(n) / 2147483647.0);
        n = (16807 * n) % 2147483647;
    }
    return phase;
}

constexpr std::size_t nbs14_factors[] = {1, 10, 100};

// The published values at tau = 1, 10, 100 s (NIST SP 1065, Table 31 "1000-point test suite
// results", p. 108; also W. J. Riley, "Stable32 test suite", Table III). Published to 7
// significant digits; we require agreement to 1e-6 relative (the table's rounding).
TEST(Nbs14, OverlappingAdevMatchesPublishedValues) {
    const double published[] = {2.922319e-01, 9.159953e-02, 3.241343e-02};
    const auto adev = overlapping_adev(nbs14_phase(), 1.0, nbs14_factors);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_NEAR(adev[i] / published[i], 1.0, 1e-6) << "tau " << nbs14_factors[i];
    }
}

TEST(Nbs14, MdevMatchesPublishedValues) {
    const double published[] = {2.922319e-01, 6.172376e-02, 2.170921e-02};
    const auto mdev = modified_adev(nbs14_phase(), 1.0, nbs14_factors);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_NEAR(mdev[i] / published[i], 1.0, 1e-6) << "tau " << nbs14_factors[i];
    }
}

TEST(Nbs14, TdevMatchesPublishedValues) {
    const double published[] = {1.687202e-01, 3.563623e-01, 1.253382e+00};
    const auto tdev = time_deviation(nbs14_phase(), 1.0, nbs14_factors);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_NEAR(tdev[i] / published[i], 1.0, 1e-6) << "tau " << nbs14_factors[i];
    }
}

// Stable32's own results on PHASE.DAT, the test file it ships (shared reference data; Stable32
// prints 5 significant digits, so agreement is to 1e-4 relative).
class Stable32PhaseDat : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = test::reference_data_dir() / "stable32-phasedat";
        if (!std::filesystem::exists(dir_ / "PHASE.DAT")) {
            GTEST_SKIP() << "reference data not present at " << dir_
                         << " (it lives beside the repository, not in it)";
        }
        phase_ = test::read_column(dir_ / "PHASE.DAT");
        ASSERT_EQ(phase_.size(), 1001u);
    }

    void expect_matches(const char* file, const std::vector<double>& ours,
                        const std::vector<test::Stable32Row>& rows) {
        ASSERT_EQ(ours.size(), rows.size()) << file;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            EXPECT_NEAR(ours[i] / rows[i].sigma, 1.0, 1e-4)
                << file << " AF " << rows[i].af << ": ours " << ours[i] << ", Stable32 "
                << rows[i].sigma;
        }
    }

    static std::vector<std::size_t> factors_of(const std::vector<test::Stable32Row>& rows) {
        std::vector<std::size_t> f;
        for (const auto& r : rows) {
            f.push_back(r.af);
        }
        return f;
    }

    std::filesystem::path dir_;
    std::vector<double> phase_;
};

TEST_F(Stable32PhaseDat, OverlappingAdev) {
    const auto rows = test::read_stable32(dir_ / "phase_dat_oadev_octave.txt");
    ASSERT_EQ(rows.size(), 8u);
    // Stable32's octave taus are ours: 1 … 128 for 1001 points.
    EXPECT_EQ(factors_of(rows), octave_factors(phase_.size()));
    expect_matches("oadev", overlapping_adev(phase_, 1.0, factors_of(rows)), rows);
}

TEST_F(Stable32PhaseDat, Mdev) {
    const auto rows = test::read_stable32(dir_ / "phase_dat_mdev_octave.txt");
    expect_matches("mdev", modified_adev(phase_, 1.0, factors_of(rows)), rows);
}

TEST_F(Stable32PhaseDat, Tdev) {
    const auto rows = test::read_stable32(dir_ / "phase_dat_tdev_octave.txt");
    expect_matches("tdev", time_deviation(phase_, 1.0, factors_of(rows)), rows);
}

// Stable32 lists MTIE at AF = 1, 3, 7, 15, … with windows of AF + 1 samples: that is our
// factor m = AF (window m + 1 samples, tau = m·tau0).
TEST_F(Stable32PhaseDat, Mtie) {
    const auto rows = test::read_stable32(dir_ / "phase_dat_mtie.txt");
    ASSERT_EQ(rows.size(), 9u);
    expect_matches("mtie", mtie(phase_, factors_of(rows)), rows);
}

TEST(Mtie, IsTheLargestRangeOverAnyWindowOfMPlusOneSamples) {
    const std::vector<double> x = {0, 1, -1, 3, 2, 2, -4, 0};
    const std::size_t factors[] = {1, 2, 3, 7, 8};
    const auto got = mtie(x, factors);
    EXPECT_DOUBLE_EQ(got[0], 6.0);    // {2, −4}
    EXPECT_DOUBLE_EQ(got[1], 6.0);    // {2, 2, −4} and {2, −4, 0}
    EXPECT_DOUBLE_EQ(got[2], 7.0);    // {3, 2, 2, −4}
    EXPECT_DOUBLE_EQ(got[3], 7.0);    // everything
    EXPECT_TRUE(std::isnan(got[4]));  // a window longer than the series
}

TEST(Mtie, BruteForceAgreesOnUnevenWindows) {
    std::vector<double> x;
    std::uint64_t state = 42;
    for (int i = 0; i < 300; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        x.push_back(static_cast<double>(state >> 40) / 16777216.0 + 0.01 * i);
    }
    const std::size_t factors[] = {13, 1, 5, 64, 100, 299};
    const auto got = mtie(x, factors);
    for (std::size_t k = 0; k < std::size(factors); ++k) {
        double best = 0;
        for (std::size_t i = 0; i + factors[k] < x.size(); ++i) {
            const auto first = x.begin() + static_cast<std::ptrdiff_t>(i);
            const auto last = first + static_cast<std::ptrdiff_t>(factors[k] + 1);
            best = std::max(best, *std::max_element(first, last) - *std::min_element(first, last));
        }
        EXPECT_DOUBLE_EQ(got[k], best) << "m " << factors[k];
    }
}

// Gaps: a missing sample removes exactly the terms that need it and nothing else.
TEST(Gaps, AMissingSampleDropsOnlyTheTermsThatUseIt) {
    auto phase = nbs14_phase();
    const std::size_t m[] = {1};
    const double before = overlapping_adev(phase, 1.0, m)[0];
    phase[500] = std::numeric_limits<double>::quiet_NaN();
    const double after = overlapping_adev(phase, 1.0, m)[0];
    EXPECT_FALSE(std::isnan(after));
    EXPECT_NEAR(after / before, 1.0, 0.01);  // 3 of 999 terms gone
    const auto md = modified_adev(phase, 1.0, std::span<const std::size_t>(nbs14_factors));
    for (double v : md) {
        EXPECT_FALSE(std::isnan(v));
    }
}

TEST(Gaps, MdevWithGapEqualsBruteForceOverCompleteTerms) {
    auto x = nbs14_phase();
    x[123] = x[124] = std::numeric_limits<double>::quiet_NaN();
    const std::size_t m = 7;
    long double sum = 0;
    std::size_t terms = 0;
    for (std::size_t j = 0; j + 3 * m <= x.size(); ++j) {
        long double inner = 0;
        for (std::size_t i = j; i < j + m; ++i) {
            inner += x[i + 2 * m] - 2 * x[i + m] + x[i];
        }
        if (!std::isnan(static_cast<double>(inner))) {
            sum += inner * inner;
            ++terms;
        }
    }
    const double expected =
        std::sqrt(static_cast<double>(sum / terms) / (2.0 * m * m * double(m) * double(m)));
    const std::size_t factors[] = {m};
    EXPECT_NEAR(modified_adev(x, 1.0, factors)[0], expected, 1e-12 * expected);
}

// ADEV runs the stretches between listed holes without a NaN test per term, and the general
// step elsewhere (and everywhere when more than one sample in 16 is missing): both must count
// exactly the complete terms. Four taus at once, as the report groups them.
TEST(Gaps, AdevWithFewOrManyGapsEqualsBruteForceOverCompleteTerms) {
    for (const std::size_t every : {997UL, 7UL}) {  // holes listed, or too many to list
        std::vector<double> x(20000);
        std::uint64_t state = 1;
        for (std::size_t i = 0; i < x.size(); ++i) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            x[i] = 1e-6 + static_cast<double>(state >> 11) * 0x1.0p-53 * 1e-9;
            if (i % every == 3) {
                x[i] = std::numeric_limits<double>::quiet_NaN();
            }
        }
        const std::size_t factors[] = {1, 2, 4, 8, 16, 300};
        const auto got = overlapping_adev(x, 1.0, factors);
        for (std::size_t f = 0; f < std::size(factors); ++f) {
            const std::size_t m = factors[f];
            long double sum = 0;
            std::size_t terms = 0;
            for (std::size_t i = 0; i + 2 * m < x.size(); ++i) {
                const long double d = static_cast<long double>(x[i + 2 * m]) - 2 * x[i + m] + x[i];
                if (!std::isnan(static_cast<double>(d))) {
                    sum += d * d;
                    ++terms;
                }
            }
            const double expected =
                std::sqrt(static_cast<double>(sum / terms) / (2.0 * double(m) * double(m)));
            SCOPED_TRACE(::testing::Message() << "a hole every " << every << ", m = " << m);
            EXPECT_NEAR(got[f], expected, 1e-10 * expected);  // one term is 5e-5
        }
    }
}

// The report computes the taus four at a time, two to a SIMD register, and a tau alone runs
// the scalar loop; each must see the same operations in the same order, so the two agree to
// the last bit (not merely within rounding). A drifting phase makes the running sums cancel,
// where any reordering would show; no holes, few (listed) and many (the general step).
TEST(Gaps, EachTauInAGroupEqualsItAloneBitForBit) {
    for (const std::size_t every : {0UL, 613UL, 9UL}) {
        std::vector<double> x(6000);
        std::uint64_t state = 7;
        for (std::size_t i = 0; i < x.size(); ++i) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            x[i] =
                3e-6 * static_cast<double>(i) + static_cast<double>(state >> 11) * 0x1.0p-53 * 1e-6;
            if (every != 0 && i % every == 5) {
                x[i] = std::numeric_limits<double>::quiet_NaN();
            }
        }
        const std::size_t factors[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
        const auto adev = overlapping_adev(x, 1.0, factors);
        const auto mdev = modified_adev(x, 1.0, factors);
        for (std::size_t f = 0; f < std::size(factors); ++f) {
            const std::size_t alone[] = {factors[f]};
            SCOPED_TRACE(::testing::Message() << "a hole every " << every << ", m = " << alone[0]);
            // NaN where no term is complete (MDEV with a hole in every 3m-sample span), alone too
            EXPECT_EQ(std::bit_cast<std::uint64_t>(adev[f]),
                      std::bit_cast<std::uint64_t>(overlapping_adev(x, 1.0, alone)[0]));
            EXPECT_EQ(std::bit_cast<std::uint64_t>(mdev[f]),
                      std::bit_cast<std::uint64_t>(modified_adev(x, 1.0, alone)[0]));
        }
    }
}

TEST(OctaveFactors, StopAtAQuarterOfTheSeries) {
    EXPECT_EQ(octave_factors(1001), (std::vector<std::size_t>{1, 2, 4, 8, 16, 32, 64, 128}));
    EXPECT_TRUE(octave_factors(4).empty());
    EXPECT_EQ(octave_factors(5), (std::vector<std::size_t>{1}));
}

}  // namespace
}  // namespace ppsbench::stats
