// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/analyze.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "numpy_oracle.hpp"
#include "ppsbench/analysis/statistics_json.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "pulse_train.hpp"

namespace ppsbench::stats {
namespace {

using core::ns_per_second;
constexpr std::int64_t whole_second_near_2_62 =
    (std::int64_t{1} << 62) / ns_per_second * ns_per_second;  // a whole second

// numpy's view of the phase offsets: (t − lo) mod P + lo puts every offset in [lo, lo + P)
// (int64, exact), then the usual figures. lo = −P/2 is the plain "distance from the top of
// the second"; other windows check sources that sit near ±P/2.
constexpr const char* offsets_script = R"(
t = np.loadtxt(sys.argv[1], dtype=np.int64, ndmin=1)
P, lo = np.int64(sys.argv[2]), np.int64(sys.argv[3])
x = ((t - lo) % P + lo).astype(np.float64)
med = np.median(x)
out = [x.mean(), x.std(ddof=1), x.min(), x.max(), np.sqrt(np.mean(x * x)), med,
       1.4826 * np.median(np.abs(x - med))]
out += list(np.quantile(np.abs(x), [0.5, 0.9, 0.99, 0.999, 0.9999, 1.0]))
print(' '.join(repr(float(v)) for v in out))
)";

void expect_offsets_match_numpy(const std::vector<core::Pulse>& pulses, std::int64_t lo) {
    const auto np = test::run_numpy(offsets_script, test::lines(test::timestamps(pulses)),
                                    {std::to_string(ns_per_second), std::to_string(lo)});
    ASSERT_EQ(np.size(), 13u) << "numpy script failed";
    AnalysisOptions options;
    options.remove_clock_steps = false;
    const RunStatistics r = analyze(pulses, options);
    ASSERT_TRUE(r.offset_ns);
    const Summary& s = *r.offset_ns;
    const double got[] = {s.mean,
                          s.stddev,
                          s.min,
                          s.max,
                          s.rms,
                          s.median,
                          s.robust_stddev,
                          s.abs_percentiles.p50,
                          s.abs_percentiles.p90,
                          s.abs_percentiles.p99,
                          s.abs_percentiles.p99_9,
                          s.abs_percentiles.p99_99,
                          s.abs_percentiles.max};
    const char* names[] = {"mean", "stddev", "min", "max",   "rms",    "median", "robust_stddev",
                           "p50",  "p90",    "p99", "p99.9", "p99.99", "max|x|"};
    for (std::size_t i = 0; i < 13; ++i) {
        EXPECT_NEAR(got[i], np[i], 1e-12 * std::max(1.0, std::abs(np[i])))
            << names[i] << ": ours " << got[i] << ", numpy " << np[i];
    }
}

TEST(OffsetsVsNumpy, NegativeOffsetsAroundTheSecondBoundaryNear2To62) {
    PPSBENCH_REQUIRE_NUMPY();
    test::TestRandom rng(21);
    const auto pulses = test::pulse_train(20000, whole_second_near_2_62, ns_per_second,
                                          [&](std::size_t) { return rng.normal(-300, 2134); });
    expect_offsets_match_numpy(pulses, -ns_per_second / 2);
}

TEST(OffsetsVsNumpy, SourceJustBeforeHalfASecondIsNotTornInTwo) {
    PPSBENCH_REQUIRE_NUMPY();
    test::TestRandom rng(22);
    // Offsets around +0.5 s − 20 ns: plain (−P/2, P/2] offsets would flip between ±0.5 s.
    const auto pulses =
        test::pulse_train(5000, whole_second_near_2_62, ns_per_second,
                          [&](std::size_t) { return 0.5e9 - 20 + rng.normal(0, 50); });
    expect_offsets_match_numpy(pulses, 0);
}

TEST(OffsetsVsNumpy, SourceJustAfterHalfASecondIsNotTornInTwo) {
    PPSBENCH_REQUIRE_NUMPY();
    test::TestRandom rng(23);
    const auto pulses =
        test::pulse_train(5000, whole_second_near_2_62, ns_per_second,
                          [&](std::size_t) { return 0.5e9 + 20 + rng.normal(0, 50); });
    expect_offsets_match_numpy(pulses, -ns_per_second);  // i.e. −0.5 s + 20 ns
}

std::vector<core::Pulse> noisy_train(std::size_t n, std::uint64_t seed, double sigma = 500) {
    test::TestRandom rng(seed);
    return test::pulse_train(n, 1'700'000'000 * ns_per_second, ns_per_second,
                             [&](std::size_t) { return rng.normal(-250, sigma); });
}

void expect_same_spread(const Summary& a, const Summary& b, const char* what) {
    EXPECT_NEAR(a.stddev, b.stddev, 1e-9 * b.stddev) << what;
    EXPECT_NEAR(a.peak_to_peak, b.peak_to_peak, 1e-9) << what;
    EXPECT_NEAR(a.robust_stddev, b.robust_stddev, 1e-9) << what;
    EXPECT_NEAR(a.stddev_ci95.lo, b.stddev_ci95.lo, 1e-9 * b.stddev) << what;
}

TEST(Properties, AddingAConstantChangesOnlyTheLocation) {
    const auto pulses = noisy_train(3000, 31);
    auto shifted = pulses;
    constexpr std::int64_t shift = 1234;  // ns
    for (auto& p : shifted) {
        p.timestamp_ns += shift + 17 * ns_per_second;  // whole seconds change nothing at all
    }
    const RunStatistics a = analyze(pulses);
    const RunStatistics b = analyze(shifted);
    EXPECT_NEAR(b.offset_ns->mean - a.offset_ns->mean, shift, 1e-9);
    EXPECT_NEAR(b.offset_ns->median - a.offset_ns->median, shift, 1e-9);
    EXPECT_NEAR(b.offset_ns->min - a.offset_ns->min, shift, 1e-9);
    expect_same_spread(*b.offset_ns, *a.offset_ns, "offsets");
    expect_same_spread(b.detrended_ns, a.detrended_ns, "detrended");
    EXPECT_NEAR(b.detrended_ns.mean, a.detrended_ns.mean, 1e-9);
    expect_same_spread(b.period_jitter_ns, a.period_jitter_ns, "period jitter");
    EXPECT_EQ(b.period_jitter_ns.mean, a.period_jitter_ns.mean);
    EXPECT_EQ(b.missed_pulses, a.missed_pulses);
    EXPECT_EQ(b.outliers.pulses, a.outliers.pulses);
    ASSERT_TRUE(a.stability && b.stability);
    for (std::size_t i = 0; i < a.stability->adev.size(); ++i) {
        EXPECT_NEAR(b.stability->adev[i], a.stability->adev[i], 1e-9 * a.stability->adev[i]);
        EXPECT_NEAR(b.stability->mtie_s[i], a.stability->mtie_s[i], 1e-15);
    }
}

TEST(Properties, PureFrequencyOffsetVanishesAfterDetrending) {
    // A monotonic clock 30 ppm fast and otherwise perfect.
    auto pulses = test::pulse_train(50'000, 123'456'789, ns_per_second + 30'000,
                                    [](std::size_t) { return 0.0; });
    AnalysisOptions options;
    options.clock = core::ClockId::monotonic;
    const RunStatistics r = analyze(pulses, options);
    EXPECT_FALSE(r.offset_ns);  // meaningless on a monotonic clock
    EXPECT_EQ(r.missed_pulses, 0u);
    EXPECT_NEAR(r.detrended_ns.stddev, 0.0, 1e-5);  // fs-level rounding on 1.5e9 ns of drift
    EXPECT_NEAR(r.detrended_ns.peak_to_peak, 0.0, 1e-5);
    EXPECT_NEAR(r.fit.slope(0), 30'000.0, 1e-6);
    EXPECT_NEAR(r.period_jitter_ns.mean, 30'000.0, 1e-9);  // the rate error, honestly shown
    EXPECT_EQ(r.period_jitter_ns.stddev, 0.0);
    EXPECT_TRUE(r.clock_steps.empty());
    EXPECT_EQ(&r.headline(), &r.detrended_ns);
}

TEST(Properties, RemovingOnePulseIsOneMissedPulse) {
    auto pulses = noisy_train(1000, 41);
    const RunStatistics before = analyze(pulses);
    pulses.erase(pulses.begin() + 500);
    const RunStatistics r = analyze(pulses);
    EXPECT_EQ(r.missed_pulses, 1u);
    // An empty slot the kernel counted an event for: counted once, as confirmed by sequence.
    EXPECT_EQ(r.missed_by_sequence, 1u);
    EXPECT_EQ(r.missed_by_time, 0u);
    EXPECT_EQ(r.unseen_events, 0u);
    ASSERT_EQ(r.gaps.size(), 1u);
    EXPECT_EQ(r.gaps[0].pulse, 500u);
    EXPECT_EQ(r.pulses, 999u);
    // The pair across the gap is not a period: skipped, not a 1 s outlier.
    EXPECT_EQ(r.period_pairs_skipped_gaps, 1u);
    EXPECT_LT(r.period_jitter_ns.max, 5000.0);
    // The fit does not bend: the index has a hole instead.
    EXPECT_NEAR(r.detrended_ns.stddev, before.detrended_ns.stddev,
                0.01 * before.detrended_ns.stddev);
    ASSERT_TRUE(r.stability);
    EXPECT_EQ(r.stability->missing_samples, 1u);
    EXPECT_TRUE(r.outliers.pulses.empty());
}

TEST(Properties, MissedPulsesWithoutSequenceNumbersAreFoundByTime) {
    auto pulses = noisy_train(1000, 42);
    for (auto& p : pulses) {
        p.sequence = 0;  // an imported log
    }
    pulses.erase(pulses.begin() + 100, pulses.begin() + 103);
    const RunStatistics r = analyze(pulses);
    EXPECT_EQ(r.missed_pulses, 3u);
    EXPECT_EQ(r.missed_by_sequence, 0u);
    EXPECT_EQ(r.missed_by_time, 3u);
}

// One rule for missed pulses, unseen kernel events and clock steps (docs/methodology.md §4).

TEST(Timeline, ASequenceSkipWithoutATimeGapIsAnUnseenEventNotAMissedPulse) {
    auto pulses = noisy_train(1000, 43);
    for (std::size_t i = 400; i < pulses.size(); ++i) {
        pulses[i].sequence += 3;  // three glitches the reader never fetched
    }
    const RunStatistics r = analyze(pulses);
    EXPECT_EQ(r.missed_pulses, 0u);
    EXPECT_EQ(r.unseen_events, 3u);
    EXPECT_TRUE(r.gaps.empty());
    EXPECT_TRUE(r.clock_steps.empty());
    EXPECT_EQ(r.period_pairs_skipped_gaps, 0u);
}

TEST(Timeline, ASkipLongerThanTheGapIsMissedPulsesPlusUnseenEvents) {
    auto pulses = noisy_train(1000, 44);
    pulses.erase(pulses.begin() + 500);  // one empty slot ...
    for (std::size_t i = 500; i < pulses.size(); ++i) {
        pulses[i].sequence += 2;  // ... and the kernel counted three events in it
    }
    const RunStatistics r = analyze(pulses);
    EXPECT_EQ(r.missed_pulses, 1u);
    EXPECT_EQ(r.unseen_events, 2u);
}

// A Pi without a real-time clock, stepped by chrony at boot: the kernel's sequence numbers
// run on, the clock jumps by whole seconds (plus a bit).
void expect_one_step_of(std::int64_t jump) {
    const auto clean = noisy_train(200, 45);
    auto stepped = clean;
    for (std::size_t i = 120; i < stepped.size(); ++i) {
        stepped[i].timestamp_ns += jump;
    }
    const RunStatistics c = analyze(clean);
    const RunStatistics r = analyze(stepped);
    SCOPED_TRACE("step of " + std::to_string(jump) + " ns");
    EXPECT_EQ(r.missed_pulses, 0u);
    EXPECT_EQ(r.unseen_events, 0u);
    ASSERT_EQ(r.clock_steps.size(), 1u);
    EXPECT_EQ(r.clock_steps[0].pulse, 120u);
    EXPECT_EQ(r.clock_steps[0].timestamp_ns, stepped[120].timestamp_ns);
    // Exact to the noise of the fit (σ = 500 ns, ~100 samples a side).
    EXPECT_NEAR(r.clock_steps[0].size_ns, static_cast<double>(jump), 300.0);
    EXPECT_EQ(r.pulses, 200u);
    EXPECT_EQ(r.duplicates, 0u);
    EXPECT_EQ(r.out_of_order, 0u);
    EXPECT_NEAR(r.offset_ns->stddev, c.offset_ns->stddev, 0.02 * c.offset_ns->stddev);
    EXPECT_NEAR(r.detrended_ns.stddev, c.detrended_ns.stddev, 0.02 * c.detrended_ns.stddev);
    EXPECT_EQ(r.period_pairs_skipped_steps, 1u);
    EXPECT_LT(r.period_jitter_ns.max, 5000.0);
    ASSERT_TRUE(r.stability);  // the grid spans the pulses, not the jump
}

TEST(Timeline, ATimeJumpWithContiguousSequenceNumbersIsAClockStepAtAnySize) {
    constexpr std::int64_t day = 86'400 * ns_per_second;
    expect_one_step_of(3'000'000);                 // +3 ms: found in the phase
    expect_one_step_of(700'000'000);               // +700 ms
    expect_one_step_of(-700'000'000);              // −700 ms: not a duplicate
    expect_one_step_of(day);                       // +1 day, not 86 400 missed pulses
    expect_one_step_of(365 * day);                 // +1 year
    expect_one_step_of(50 * 365 * day + 123'456);  // +50 years and a bit
    expect_one_step_of(-day);                      // back a day: not out of order
}

TEST(Timeline, AGlitchHalfAPeriodAfterAPulseIsADuplicateNotAStep) {
    auto pulses = noisy_train(300, 46);
    for (std::size_t i = 151; i < pulses.size(); ++i) {
        ++pulses[i].sequence;  // the glitch used a sequence number
    }
    pulses.insert(pulses.begin() + 151,
                  {pulses[150].sequence + 1, pulses[150].timestamp_ns + 300'000'000,
                   core::Edge::assert_edge});
    const RunStatistics r = analyze(pulses);
    EXPECT_TRUE(r.clock_steps.empty());
    EXPECT_EQ(r.duplicates, 1u);
    EXPECT_EQ(r.pulses, 300u);
    EXPECT_EQ(r.missed_pulses, 0u);
}

TEST(Timeline, WithoutSequenceEvidenceAJumpIsMissedPulsesByTime) {
    auto pulses = noisy_train(100, 47);
    for (std::size_t i = 50; i < pulses.size(); ++i) {
        pulses[i].timestamp_ns += 10 * ns_per_second;
    }
    for (auto& p : pulses) {
        p.sequence = 0;  // an imported log: no kernel count to tell a step from an outage
    }
    const RunStatistics r = analyze(pulses);
    EXPECT_EQ(r.missed_pulses, 10u);
    EXPECT_EQ(r.missed_by_time, 10u);
    EXPECT_TRUE(r.clock_steps.empty());
}

TEST(Timeline, AMonotonicClockCannotStepSoItsGapsAreMissedPulses) {
    // GPIO events on the v1 uAPI: ppsbench numbers them itself, so the numbers never skip.
    auto pulses = noisy_train(100, 48);
    for (std::size_t i = 50; i < pulses.size(); ++i) {
        pulses[i].timestamp_ns += 3 * ns_per_second;
    }
    AnalysisOptions options;
    options.clock = core::ClockId::monotonic;
    const RunStatistics r = analyze(pulses, options);
    EXPECT_EQ(r.missed_pulses, 3u);
    EXPECT_EQ(r.missed_by_time, 3u);
    EXPECT_TRUE(r.clock_steps.empty());
}

TEST(Timeline, ExtremeSequenceNumbersAreNoEvidence) {
    auto pulses = noisy_train(100, 49);
    pulses[60].sequence = std::numeric_limits<std::uint64_t>::max();  // 2^64 − 1
    const RunStatistics r = analyze(pulses);
    EXPECT_EQ(r.missed_pulses, 0u);
    EXPECT_EQ(r.unseen_events, 0u);
    EXPECT_TRUE(r.clock_steps.empty());
    EXPECT_EQ(r.pulses, 100u);
}

TEST(Timeline, ExtremeTimestampsGiveAnErrorOrAnAnalysis) {
    auto negative = noisy_train(10, 50);
    negative[3].timestamp_ns = -1;
    EXPECT_THROW(analyze(negative), core::InputError);
    // Two pulses 2^63 − 1 ns apart, in the wrong order with contiguous numbers: not a step
    // (its size would not fit), so out of order, and the gap is empty slots.
    const std::vector<core::Pulse> far = {
        {1, std::numeric_limits<std::int64_t>::max(), core::Edge::assert_edge},
        {2, 0, core::Edge::assert_edge}};
    const RunStatistics r = analyze(far);
    EXPECT_EQ(r.pulses, 2u);
    EXPECT_EQ(r.out_of_order, 1u);
    EXPECT_FALSE(r.stability);  // not 9·10⁹ grid slots
}

TEST(Properties, AnInjectedStepIsDetectedWithItsTimeAndSize) {
    auto pulses = noisy_train(2000, 51, 100);
    const std::int64_t step = 7'000;  // ns: chrony stepping the clock, say
    for (std::size_t i = 1200; i < pulses.size(); ++i) {
        pulses[i].timestamp_ns += step;
    }
    const RunStatistics r = analyze(pulses);
    ASSERT_EQ(r.clock_steps.size(), 1u);
    EXPECT_EQ(r.clock_steps[0].pulse, 1200u);
    EXPECT_EQ(r.clock_steps[0].timestamp_ns, pulses[1200].timestamp_ns);
    EXPECT_NEAR(r.clock_steps[0].size_ns, step, 100.0);
    // Removed, the step does not wreck the figures: σ stays the 100 ns of the noise instead
    // of the ~3400 ns a bimodal series would give.
    EXPECT_TRUE(r.clock_steps_removed);
    EXPECT_NEAR(r.offset_ns->stddev, 100.0, 10.0);
    EXPECT_NEAR(r.detrended_ns.stddev, 100.0, 10.0);
    EXPECT_EQ(r.period_pairs_skipped_steps, 1u);
    EXPECT_LT(r.period_jitter_ns.max, 1000.0);
    EXPECT_TRUE(r.outliers.pulses.empty());

    AnalysisOptions keep;
    keep.remove_clock_steps = false;
    const RunStatistics raw = analyze(pulses, keep);
    EXPECT_EQ(raw.clock_steps.size(), 1u);  // still reported
    EXPECT_GT(raw.offset_ns->stddev, 3000.0);
}

TEST(Properties, LoneSpikesAreOutliersNotSteps) {
    auto pulses = noisy_train(3000, 61, 100);
    const std::set<std::size_t> spikes = {10, 1500, 2999};
    for (std::size_t i : spikes) {
        pulses[i].timestamp_ns += 60'000;  // a late interrupt thread
    }
    const RunStatistics r = analyze(pulses);
    EXPECT_TRUE(r.clock_steps.empty());
    EXPECT_EQ(std::set<std::size_t>(r.outliers.pulses.begin(), r.outliers.pulses.end()), spikes);
    // Flagged, never silently dropped: the headline keeps them, the other figure does not.
    EXPECT_GT(r.offset_ns->max, 50'000.0);
    EXPECT_LT(r.offset_ns_without_outliers->max, 1'000.0);
    EXPECT_NEAR(r.offset_ns_without_outliers->stddev, 100.0, 10.0);
    EXPECT_EQ(r.offset_ns_without_outliers->count, 2997u);
    EXPECT_LT(r.period_jitter_ns_without_outliers.max, 1'000.0);
}

TEST(Properties, DuplicatesAndOutOfOrderPulsesAreCountedAndRepaired) {
    const auto clean = noisy_train(500, 71);
    auto messy = clean;
    messy.insert(messy.begin() + 200, messy[200]);  // the same line twice
    std::swap(messy[300], messy[301]);
    const RunStatistics r = analyze(messy);
    const RunStatistics c = analyze(clean);
    EXPECT_EQ(r.duplicates, 1u);
    EXPECT_EQ(r.out_of_order, 1u);
    EXPECT_EQ(r.pulses, 500u);
    EXPECT_EQ(r.missed_pulses, 0u);
    EXPECT_DOUBLE_EQ(r.offset_ns->stddev, c.offset_ns->stddev);
    EXPECT_DOUBLE_EQ(r.period_jitter_ns.stddev, c.period_jitter_ns.stddev);
}

TEST(Analyze, AnalysesOneEdgeOfABothEdgesCapture) {
    auto pulses = noisy_train(400, 81);
    std::vector<core::Pulse> both;
    for (const auto& p : pulses) {
        both.push_back(p);
        both.push_back({p.sequence, p.timestamp_ns + 100'000'000, core::Edge::clear_edge});
    }
    const RunStatistics r = analyze(both);
    EXPECT_EQ(r.edge, core::Edge::assert_edge);
    EXPECT_EQ(r.pulses, 400u);
    EXPECT_EQ(r.other_edge_pulses, 400u);
    EXPECT_EQ(r.missed_pulses, 0u);
    EXPECT_DOUBLE_EQ(r.offset_ns->stddev, analyze(pulses).offset_ns->stddev);

    AnalysisOptions clear;
    clear.edge = core::Edge::clear_edge;
    EXPECT_NEAR(analyze(both, clear).offset_ns->mean, r.offset_ns->mean + 1e8, 1e-6);
}

TEST(Analyze, TinyRunsGiveNaNNotCrashes) {
    const RunStatistics none = analyze({});
    EXPECT_EQ(none.pulses, 0u);
    EXPECT_TRUE(std::isnan(none.offset_ns->mean));
    const auto one = noisy_train(1, 91);
    const RunStatistics r1 = analyze(one);
    EXPECT_EQ(r1.offset_ns->count, 1u);
    EXPECT_TRUE(std::isnan(r1.offset_ns->stddev));
    EXPECT_EQ(r1.period_jitter_ns.count, 0u);
    const auto two = noisy_train(2, 92);
    const RunStatistics r2 = analyze(two);
    EXPECT_EQ(r2.period_jitter_ns.count, 1u);
    EXPECT_EQ(r2.detrended_ns.stddev, 0.0);  // two points, one line: nothing left
}

TEST(Analyze, RejectsImpossibleOptions) {
    AnalysisOptions bad;
    bad.period_ns = 0;
    EXPECT_THROW(analyze({}, bad), core::UsageError);
    bad = {};
    bad.detrend_degree = 3;
    EXPECT_THROW(analyze({}, bad), core::UsageError);
}

TEST(Json, HasExactlyTheKeysOfTheReportSchema) {
    auto pulses = noisy_train(2000, 101);
    const nlohmann::json j = analysis::statistics_json(analyze(pulses));
    std::set<std::string> keys;
    for (const auto& [key, value] : j.items()) {
        keys.insert(key);
    }
    EXPECT_EQ(keys,
              (std::set<std::string>{"pulses", "missed_pulses", "unseen_events", "outliers",
                                     "duplicates", "out_of_order", "cadence", "sequences", "clock",
                                     "free_running", "drift_judged", "clock_steps", "offset_ns",
                                     "detrended_ns", "period_jitter_ns", "stability"}));
    for (const char* series : {"offset_ns", "detrended_ns", "period_jitter_ns"}) {
        std::set<std::string> fields;
        for (const auto& [key, value] : j[series].items()) {
            fields.insert(key);
        }
        EXPECT_EQ(fields,
                  (std::set<std::string>{"mean", "stddev", "peak_to_peak", "min", "max", "rms",
                                         "median", "robust_stddev", "abs_percentiles",
                                         "stddev_ci95", "stddev_without_outliers"}))
            << series;
        EXPECT_EQ(j[series]["stddev_ci95"].size(), 2u);
        EXPECT_TRUE(j[series]["abs_percentiles"].contains("p99.99"));
    }
    for (const char* key : {"tau_s", "adev", "mdev", "tdev_s", "mtie_s"}) {
        EXPECT_EQ(j["stability"][key].size(), 9u) << key;  // 1, 2, … 256 s: 256 <= 1999/4
    }
    EXPECT_EQ(j["pulses"], 2000);
}

TEST(Json, NaNBecomesNullAndMonotonicHasNoOffsets) {
    AnalysisOptions options;
    options.clock = core::ClockId::monotonic;
    const nlohmann::json j = analysis::statistics_json(analyze(noisy_train(1, 111), options));
    EXPECT_TRUE(j["offset_ns"].is_null());
    EXPECT_TRUE(j["detrended_ns"]["stddev"].is_null());
    EXPECT_TRUE(j["period_jitter_ns"]["mean"].is_null());
    EXPECT_TRUE(j["detrended_ns"]["stddev_ci95"][0].is_null());
    EXPECT_EQ(j.dump().find("NaN"), std::string::npos);
}

}  // namespace
}  // namespace ppsbench::stats
