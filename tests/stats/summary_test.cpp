// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/summary.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "numpy_oracle.hpp"
#include "ppsbench/stats/quantile.hpp"
#include "stats/quantile_in_place.hpp"

namespace ppsbench::stats {
namespace {

using test::run_numpy;

// What numpy says about a series: the same figures, in Summary's order.
constexpr const char* summary_script = R"(
x = np.loadtxt(sys.argv[1], ndmin=1, dtype=np.float64)
med = np.median(x)
out = [x.mean(), x.std(ddof=1) if x.size > 1 else np.nan, x.min(), x.max(), np.ptp(x),
       np.sqrt(np.mean(x * x)), med, 1.4826 * np.median(np.abs(x - med))]
out += list(np.quantile(np.abs(x), [0.5, 0.9, 0.99, 0.999, 0.9999, 1.0]))
print(' '.join(repr(float(v)) for v in out))
)";

void expect_close(double ours, double numpy, const char* what, double relative = 1e-12) {
    if (std::isnan(numpy)) {
        EXPECT_TRUE(std::isnan(ours)) << what << ": ours " << ours << ", numpy nan";
        return;
    }
    EXPECT_NEAR(ours, numpy, relative * std::max(1.0, std::abs(numpy)))
        << what << ": ours " << ours << ", numpy " << numpy;
}

void expect_matches_numpy(const std::vector<double>& x) {
    const auto np = run_numpy(summary_script, test::lines(x));
    ASSERT_EQ(np.size(), 14u) << "numpy script failed";
    const Summary s = summarize(x);
    EXPECT_EQ(s.count, x.size());
    expect_close(s.mean, np[0], "mean");
    expect_close(s.stddev, np[1], "stddev (n-1)");
    expect_close(s.min, np[2], "min");
    expect_close(s.max, np[3], "max");
    expect_close(s.peak_to_peak, np[4], "peak_to_peak");
    expect_close(s.rms, np[5], "rms");
    expect_close(s.median, np[6], "median");
    expect_close(s.robust_stddev, np[7], "robust_stddev");
    const AbsPercentiles& p = s.abs_percentiles;
    expect_close(p.p50, np[8], "|x| p50");
    expect_close(p.p90, np[9], "|x| p90");
    expect_close(p.p99, np[10], "|x| p99");
    expect_close(p.p99_9, np[11], "|x| p99.9");
    expect_close(p.p99_99, np[12], "|x| p99.99");
    expect_close(p.max, np[13], "|x| max");
}

TEST(SummaryVsNumpy, SeededNormalOffsetsAroundMinus300Ns) {
    PPSBENCH_REQUIRE_NUMPY();
    test::TestRandom rng(7);
    std::vector<double> x;
    for (int i = 0; i < 10007; ++i) {
        x.push_back(std::round(rng.normal(-300.0, 2134.0)));  // integer ns, like real offsets
    }
    expect_matches_numpy(x);
}

TEST(SummaryVsNumpy, HeavyTailAndEvenCount) {
    PPSBENCH_REQUIRE_NUMPY();
    test::TestRandom rng(11);
    std::vector<double> x;
    for (int i = 0; i < 5000; ++i) {
        const double late = rng.uniform() < 0.01 ? 50000.0 * rng.uniform() : 0.0;
        x.push_back(rng.normal(120.0, 40.0) + late);
    }
    expect_matches_numpy(x);
}

TEST(SummaryVsNumpy, AwkwardSmallSeries) {
    PPSBENCH_REQUIRE_NUMPY();
    expect_matches_numpy({42.0});                             // n = 1: σ undefined
    expect_matches_numpy({-5.0, 7.0});                        // n = 2
    expect_matches_numpy({3.0, 3.0, 3.0, 3.0, 3.0});          // all equal
    expect_matches_numpy({-499999999.0, 499999998.0, -2.0});  // wide range
}

TEST(Summary, EmptySeriesIsAllNaN) {
    const Summary s = summarize({});
    EXPECT_EQ(s.count, 0u);
    EXPECT_TRUE(std::isnan(s.mean));
    EXPECT_TRUE(std::isnan(s.stddev));
    EXPECT_TRUE(std::isnan(s.median));
    EXPECT_TRUE(std::isnan(s.abs_percentiles.p99));
    EXPECT_TRUE(std::isnan(s.stddev_ci95.lo));
}

TEST(Summary, OneValueHasNoSigmaButEverythingElse) {
    const Summary s = summarize(std::vector<double>{-7.0});
    EXPECT_EQ(s.mean, -7.0);
    EXPECT_TRUE(std::isnan(s.stddev));
    EXPECT_TRUE(std::isnan(s.stddev_ci95.hi));
    EXPECT_EQ(s.median, -7.0);
    EXPECT_EQ(s.robust_stddev, 0.0);
    EXPECT_EQ(s.abs_percentiles.max, 7.0);
    EXPECT_EQ(s.rms, 7.0);
}

TEST(Summary, AllEqualHasZeroSpreadAndAZeroInterval) {
    const Summary s = summarize(std::vector<double>(100, 250.0));
    EXPECT_EQ(s.stddev, 0.0);
    EXPECT_EQ(s.peak_to_peak, 0.0);
    EXPECT_EQ(s.robust_stddev, 0.0);
    EXPECT_EQ(s.stddev_ci95.lo, 0.0);
    EXPECT_EQ(s.stddev_ci95.hi, 0.0);
    EXPECT_EQ(s.rms, 250.0);
}

// The worked example of docs/methodology.md.
TEST(Summary, WorkedExampleFromTheMethodology) {
    const Summary s = summarize(std::vector<double>{-120, 80, 30, -20, 1000});
    EXPECT_DOUBLE_EQ(s.mean, 194.0);
    EXPECT_NEAR(s.stddev, std::sqrt(833920.0 / 4), 1e-9);  // Σ(x − 194)² = 833920
    EXPECT_DOUBLE_EQ(s.median, 30.0);
    EXPECT_NEAR(s.robust_stddev, 1.4826 * 50.0, 1e-12);  // |x − 30| = 150 50 0 50 970
    EXPECT_NEAR(s.rms, std::sqrt((14400.0 + 6400 + 900 + 400 + 1e6) / 5), 1e-9);
    EXPECT_DOUBLE_EQ(s.abs_percentiles.p50, 80.0);   // |x| sorted: 20 30 80 120 1000
    EXPECT_DOUBLE_EQ(s.abs_percentiles.p90, 648.0);  // h = 0.9·4 = 3.6: 120 + 0.6·880
}

TEST(Summary, RunningSummaryAgreesOnTheStreamingFigures) {
    test::TestRandom rng(3);
    std::vector<double> x;
    RunningSummary running;
    for (int i = 0; i < 1000; ++i) {
        x.push_back(rng.normal(1e6, 10.0));
        running.add(x.back());
    }
    const Summary a = running.summary();
    const Summary b = summarize(x);
    EXPECT_NEAR(a.stddev, b.stddev, 1e-9 * b.stddev);
    EXPECT_NEAR(a.mean, b.mean, 1e-14 * b.mean);
    EXPECT_TRUE(std::isnan(a.median));  // order statistics need every value
}

TEST(Quantile, LinearInterpolationLikeNumpy) {
    std::vector<double> x = {10, 1, 4, 2};  // sorted 1 2 4 10
    EXPECT_DOUBLE_EQ(quantile_in_place(x, 0.0), 1.0);
    EXPECT_DOUBLE_EQ(quantile_in_place(x, 0.5), 3.0);
    EXPECT_DOUBLE_EQ(quantile_in_place(x, 0.9), 8.2);  // h = 2.7: 4 + 0.7·6
    EXPECT_DOUBLE_EQ(quantile_in_place(x, 1.0), 10.0);
}

}  // namespace
}  // namespace ppsbench::stats
