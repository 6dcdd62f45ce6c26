// SPDX-License-Identifier: GPL-2.0-or-later
// Limits on signed figures are two-sided (issue 22): a mean of −50 µs is as far off as +50 µs,
// so `--max mean=1us` bounds |mean|, and `--min` bounds the signed value. Bad limits are usage
// errors that name the option and the metric.
#include <gtest/gtest.h>

#include <string>

#include "ppsbench/analysis/gate.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/gate_text.hpp"

namespace ppsbench::analysis {
namespace {

// A run whose only figures are the headline offset's: mean, median, min and max as given.
RunAnalysis run_with_offsets(double mean, double median, double min, double max) {
    RunAnalysis run;
    run.file = "run.csv";
    run.stats.pulses = 600;
    stats::Summary offsets;
    offsets.count = 600;
    offsets.mean = mean;
    offsets.median = median;
    offsets.min = min;
    offsets.max = max;
    offsets.stddev = 2000;
    run.stats.offset_ns = offsets;
    return run;
}

GateCheck check(const RunAnalysis& run, const std::string& limit, const char* option = "--max") {
    GateLimits limits;
    if (std::string(option) == "--max") {
        limits.maxima.push_back(parse_metric_limit(limit, option));
    } else {
        limits.minima.push_back(parse_metric_limit(limit, option, MetricLimit::Bound::lower));
    }
    return evaluate_gate(nullptr, run, limits).checks.at(0);
}

// On main: "[pass] … mean -50.0 µs is within the limit".
TEST(GateLimits, MaxOfASignedFigureBoundsItsMagnitude) {
    const auto early = run_with_offsets(-50'000, -60'000, -70'000, -40'000);
    for (const char* key : {"mean", "median", "min", "max"}) {
        const auto c = check(early, std::string(key) + "=1us");
        EXPECT_TRUE(c.failed) << key;
        EXPECT_EQ(c.bound, GateCheck::Bound::magnitude) << key;
        EXPECT_LT(c.value, 0) << key;
        EXPECT_GT(c.measured, 1000) << key;
    }
    const auto message = render::check_message(check(early, "mean=1us"));
    EXPECT_NE(message.find("|mean| 50.0 µs > 1000 ns"), std::string::npos) << message;
    EXPECT_EQ(render::check_name(check(early, "mean=1us")), "|mean| ≤ 1000 ns");
    // Mirroring the run about 0 gives the same verdicts (the mirror's min is −max): the limit
    // is two-sided.
    const auto late = run_with_offsets(50'000, 60'000, 40'000, 70'000);
    for (const char* limit : {"mean=1us", "mean=55us", "median=59us", "median=61us"}) {
        EXPECT_EQ(check(early, limit).failed, check(late, limit).failed) << limit;
    }
    for (const char* limit : {"45us", "65us", "75us"}) {
        EXPECT_EQ(check(early, std::string("min=") + limit).failed,
                  check(late, std::string("max=") + limit).failed)
            << limit;
        EXPECT_EQ(check(early, std::string("max=") + limit).failed,
                  check(late, std::string("min=") + limit).failed)
            << limit;
    }
    EXPECT_FALSE(check(early, "mean=50us").failed);
    EXPECT_FALSE(check(run_with_offsets(-500, 0, -900, 900), "mean=1us").failed);
}

TEST(GateLimits, UnsignedFiguresKeepTheirOneSidedLimit) {
    const auto run = run_with_offsets(0, 0, -5000, 5000);
    const auto sigma = check(run, "sigma=3us");
    EXPECT_EQ(sigma.bound, GateCheck::Bound::upper);
    EXPECT_FALSE(sigma.failed);
    EXPECT_TRUE(check(run, "sigma=1us").failed);
    EXPECT_EQ(render::check_name(sigma), "raw PPS jitter (σ) ≤ 3000 ns");
}

TEST(GateLimits, MinBoundsTheSignedValueFromBelow) {
    const auto early = run_with_offsets(-50'000, -60'000, -70'000, -40'000);
    EXPECT_TRUE(check(early, "mean=-10us", "--min").failed);
    EXPECT_FALSE(check(early, "mean=-60us", "--min").failed);
    const auto c = check(early, "mean=-10us", "--min");
    EXPECT_EQ(render::check_name(c), "mean ≥ -10.0 µs");
    EXPECT_NE(render::check_message(c).find("mean -50.0 µs < -10.0 µs"), std::string::npos)
        << render::check_message(c);
    EXPECT_TRUE(check(early, "pulses=601", "--min").failed);
    EXPECT_FALSE(check(early, "pulses=600", "--min").failed);
    EXPECT_EQ(render::check_message(check(early, "pulses=600", "--min")),
              "600 pulses, at least 600");
}

std::string usage_error(const std::string& text, const char* option = "--max") {
    try {
        parse_metric_limit(
            text, option,
            std::string(option) == "--min" ? MetricLimit::Bound::lower : MetricLimit::Bound::upper);
    } catch (const core::UsageError& e) {
        return e.what();
    }
    return "accepted";
}

TEST(GateLimits, BadLimitsNameTheOptionAndTheMetric) {
    EXPECT_EQ(usage_error("mean=-1us")
                  .rfind("--max mean: '-1us' is negative; --max bounds |mean| "
                         "on both sides (--max mean=1us), a lower bound of "
                         "the signed figure is --min mean=-1us",
                         0),
              0U)
        << usage_error("mean=-1us");
    EXPECT_NE(usage_error("sigma=-1us", "--min")
                  .find("--min sigma: '-1us' is negative, and sigma "
                        "never is"),
              std::string::npos);
    EXPECT_NE(usage_error("missed=-1").find("--max missed -1: use a whole number from 0"),
              std::string::npos);
    EXPECT_NE(usage_error("adev@16s=-1e-9").find("is negative"), std::string::npos);
    EXPECT_NE(usage_error("mean=nanus").find("--max mean: 'nanus' is not a duration"),
              std::string::npos);
    EXPECT_NE(usage_error("adev@16s=nan").find("--max adev@16s: 'nan' is not a number"),
              std::string::npos);
    EXPECT_NE(usage_error("mean=5").find("--max mean: '5' has no unit"), std::string::npos);
    EXPECT_NE(usage_error("mean=-5", "--min").find("--min mean: '5' has no unit"),
              std::string::npos);
    EXPECT_NE(usage_error("meen=1us").find("--max: unknown metric 'meen'"), std::string::npos);
    EXPECT_NE(usage_error("meen=1us").find("did you mean 'mean'"), std::string::npos)
        << usage_error("meen=1us");
    EXPECT_NE(usage_error("duplicatse=0").find("did you mean 'duplicates'"), std::string::npos)
        << usage_error("duplicatse=0");
}

}  // namespace
}  // namespace ppsbench::analysis
