// SPDX-License-Identifier: GPL-2.0-or-later
// Each invariant of methodology §8, broken by hand on figures that otherwise hold: the check
// names it, and require_invariants() refuses the run with the file, the run and the invariant.

#include "ppsbench/analysis/invariants.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "generated_capture.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::analysis {
namespace {

stats::RunStatistics healthy() {
    core::Random rng(42);
    const test::GeneratedCapture c = test::generate_capture(rng);
    return stats::analyze(c.pulses, c.options);
}

std::vector<std::string> names(const stats::RunStatistics& r) {
    std::vector<std::string> out;
    for (const auto& broken : broken_invariants(r)) {
        out.push_back(broken.name);
    }
    return out;
}

void expect_broken(const std::function<void(stats::RunStatistics&)>& damage,
                   const std::string& invariant) {
    stats::RunStatistics r = healthy();
    damage(r);
    const auto found = names(r);
    EXPECT_NE(std::find(found.begin(), found.end(), invariant), found.end())
        << "expected '" << invariant << "'";
}

TEST(Invariants, AComputedRunHoldsEveryOne) {
    EXPECT_TRUE(broken_invariants(healthy()).empty());
}

TEST(Invariants, OffsetsWiderThanAPeriodBreakTheWindow) {
    expect_broken(
        [](auto& r) {
            r.offset_ns->min = -0.6e9;
            r.offset_ns->max = 0.6e9;
            r.offset_ns->peak_to_peak = 1.2e9;
        },
        "offsets within (c − P/2, c + P/2]");
}

TEST(Invariants, AMedianOutsideTheRangeBreaksTheOrder) {
    expect_broken([](auto& r) { r.offset_ns->median = r.offset_ns->max + 1000; },
                  "min ≤ median, mean ≤ max");
}

TEST(Invariants, ANegativeOrOversizedSigmaIsRefused) {
    expect_broken([](auto& r) { r.offset_ns->stddev = -5; }, "0 ≤ σ ≤ p2p");
    expect_broken([](auto& r) { r.detrended_ns.stddev = r.detrended_ns.peak_to_peak * 2; },
                  "0 ≤ σ ≤ p2p");
}

TEST(Invariants, PercentilesOutOfOrderAreRefused) {
    expect_broken([](auto& r) { r.offset_ns->abs_percentiles.p90 = 1e9; }, "percentiles ordered");
}

TEST(Invariants, SigmaOutsideItsOwnIntervalIsRefused) {
    expect_broken([](auto& r) { r.offset_ns->stddev_ci95.lo = r.offset_ns->stddev * 1.5; },
                  "σ inside its 95 % interval");
}

TEST(Invariants, AMeanBeyondTheRmsIsRefused) {
    expect_broken([](auto& r) { r.offset_ns->rms = std::abs(r.offset_ns->mean) / 2; },
                  "|mean| ≤ RMS");
}

TEST(Invariants, CountsMustAddUpAndFitTheSpan) {
    expect_broken([](auto& r) { r.missed_by_time += 3; }, "missed = by sequence + by time");
    expect_broken(
        [](auto& r) {
            r.missed_pulses += 5;
            r.missed_by_sequence += 5;
        },
        "pulses + missed within the span");
    expect_broken(
        [](auto& r) {
            r.cadence = core::Cadence::sampled;
            r.missed_pulses = r.missed_by_time = 1;
        },
        "no missed pulses when sampled");
    expect_broken([](auto& r) { r.offset_ns->count += 1; }, "one offset per pulse");
}

TEST(Invariants, ASeriesWithValuesButNoMeanIsRefused) {
    expect_broken([](auto& r) { r.offset_ns->mean = stats::Summary::nan; }, "figures held");
}

TEST(Invariants, FiguresASummaryDoesNotHoldAreNotJudged) {
    stats::RunStatistics r = healthy();
    r.offset_ns->median = stats::Summary::nan;
    r.offset_ns->abs_percentiles = {};
    r.span_periods.reset();
    EXPECT_TRUE(broken_invariants(r).empty());
}

TEST(Invariants, ARefusalNamesTheFileTheRunAndTheInvariant) {
    RunAnalysis run;
    run.file = "base.json";
    run.label = "stock";
    run.stats = healthy();
    run.stats.offset_ns->stddev = -5;
    try {
        require_invariants(run, "base.json");
        FAIL() << "a negative σ was accepted";
    } catch (const core::InputError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("base.json: run 'stock'"), std::string::npos) << message;
        EXPECT_NE(message.find("'0 ≤ σ ≤ p2p'"), std::string::npos) << message;
        EXPECT_NE(message.find("save it again"), std::string::npos) << message;
    }
}

}  // namespace
}  // namespace ppsbench::analysis
