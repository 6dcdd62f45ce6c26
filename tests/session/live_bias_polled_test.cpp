// SPDX-License-Identifier: GPL-2.0-or-later
// Against a polled reference (poll:, which sees the periods it polls and no others), the live
// bias is report's: the unpolled periods against an edge interpolated between the polled ones
// around them, the polled periods apart as the disturbance, and path edges no interpolation
// reaches unpaired. These tests hold the live pairing to report's pairing of the same edges
// written as the two files of a run, whatever order and batches the two threads deliver in.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "cli.hpp"
#include "polled_capture.hpp"
#include "ppsbench/analysis/bias.hpp"
#include "ppsbench/analysis/calibration.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/session/live_bias.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::session {
namespace {

using core::ns_per_second;
constexpr std::int64_t run_start = 1'780'000'000 * ns_per_second;

struct PolledRun {
    std::vector<core::Pulse> path;
    std::vector<core::Pulse> polled;
};

// A PPS path late by `late_ns` (6 µs instead on the polled periods: the disturbance) with a
// little scatter, and a reference polling by `pattern` (true = polled), on a clock 20 ppm fast.
PolledRun polled_run(std::size_t n, std::int64_t late_ns, const std::vector<bool>& pattern,
                     std::int64_t scatter_ns = 0, std::uint32_t seed = 1) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<std::int64_t> wobble(-scatter_ns, scatter_ns);
    PolledRun run;
    for (std::size_t k = 0; k < n; ++k) {
        const std::int64_t edge = run_start + static_cast<std::int64_t>(k) * 1'000'020'000;
        const bool polled = pattern[k % pattern.size()];
        run.path.push_back(
            {k + 1, edge + (polled ? 6'000 : late_ns) + wobble(random), core::Edge::assert_edge});
        if (polled) {
            run.polled.push_back({k + 1, edge + wobble(random) / 4, core::Edge::assert_edge});
        }
    }
    return run;
}

// Both sides delivered in random batches and thread order, neither more than `lead` edges of
// its own ahead of the other's time.
LiveBias::Window deliver(const PolledRun& run, std::uint32_t seed, std::size_t lead = 8) {
    LiveBias bias(ns_per_second, core::Edge::assert_edge);
    std::mt19937 random(seed);
    const std::int64_t lead_ns = static_cast<std::int64_t>(lead) * ns_per_second;
    std::size_t p = 0;
    std::size_t r = 0;
    while (p < run.path.size() || r < run.polled.size()) {
        const bool path_may = p < run.path.size() &&
                              (r == run.polled.size() ||
                               run.path[p].timestamp_ns < run.polled[r].timestamp_ns + lead_ns);
        const bool reference_may = r < run.polled.size() &&
                                   (p == run.path.size() || run.polled[r].timestamp_ns <
                                                                run.path[p].timestamp_ns + lead_ns);
        const bool path_turn = path_may && (!reference_may || random() % 2 == 0);
        auto& at = path_turn ? p : r;
        const auto& series = path_turn ? run.path : run.polled;
        const std::size_t n = std::min<std::size_t>(1 + random() % 4, series.size() - at);
        bias.add(path_turn ? LiveBias::Side::path : LiveBias::Side::reference,
                 std::span(series).subspan(at, n));
        at += n;
    }
    return bias.run();
}

// The same run as `ppsbench run --source pps:... --source poll:...` writes it, paired by report.
analysis::Lateness report_lateness(const PolledRun& run) {
    testing::TempDir dir;
    const std::string pps = dir.file("poll-1.csv");
    const std::string reference = dir.file("poll-2.csv");
    std::vector<testing::PolledEdge> polled;
    for (const auto& pulse : run.polled) {
        polled.push_back({pulse});
    }
    testing::write_polled_run(pps, reference, run.path, polled);
    return *analysis::reference_lateness(store::read_capture_file(pps));
}

double mean(const std::vector<double>& values) {
    double sum = 0;
    for (const double v : values) {
        sum += v;
    }
    return values.empty() ? std::nan("") : sum / static_cast<double>(values.size());
}

// The path's edges after the last polled edge's period: report counts them unpaired at the
// end of the file; a running pairing still waits for the reference's next edge.
std::size_t still_waiting(const PolledRun& run) {
    std::size_t n = 0;
    for (const auto& pulse : run.path) {
        n += pulse.timestamp_ns - run.polled.back().timestamp_ns >= ns_per_second / 2 ? 1 : 0;
    }
    return n;
}

void expect_report_figures(const LiveBias::Window& live, const PolledRun& run,
                           const analysis::Lateness& report, const std::string& what) {
    const auto unpolled = live.late_ns.summary();
    const auto polled = live.polled_late_ns.summary();
    ASSERT_EQ(unpolled.count, report.late_ns.size()) << what;
    ASSERT_EQ(polled.count, report.polled_late_ns.size()) << what;
    EXPECT_EQ(live.unpaired + still_waiting(run), report.unpaired) << what;
    if (unpolled.count > 0) {  // polling 1 in 5 periods, no period is within 4 of two polls
        EXPECT_NEAR(unpolled.mean, mean(report.late_ns), 1e-6) << what;
    }
    if (polled.count > 0) {
        EXPECT_NEAR(polled.mean, mean(report.polled_late_ns), 1e-6) << what;
    }
    // chrony's filter over each 16 consecutive pairs: the constant calibrate gives.
    analysis::CalibrationSettings settings;
    settings.min_polls = 2;
    const auto calibration = analysis::calibrate(report, settings);
    ASSERT_EQ(live.filtered_ns.summary().count, calibration.polls) << what;
    if (calibration.polls >= 2) {
        EXPECT_NEAR(live.filtered_ns.summary().mean, calibration.constant_ns, 1e-6) << what;
    }
}

TEST(LiveBiasPolled, TheUnpolledPeriodsAgainstTheInterpolatedEdgeThePolledOnesApart) {
    const PolledRun run = polled_run(101, 11'700, {true, false});
    const auto live = deliver(run, 7);
    EXPECT_EQ(live.late_ns.summary().count, 50U);
    EXPECT_NEAR(live.late_ns.summary().mean, 11'700, 0.5) << "the 20 ppm clock is followed";
    EXPECT_EQ(live.polled_late_ns.summary().count, 51U);
    EXPECT_DOUBLE_EQ(live.polled_late_ns.summary().mean, 6'000);
    EXPECT_EQ(live.unpaired, 0U);
    expect_report_figures(live, run, report_lateness(run), "alternate periods");
}

// Property: for polling patterns, scatter, missed windows and thread orders, the live figures
// are report's of the same two files.
TEST(LiveBiasPolled, AnyPatternScatterLossAndInterleavingGiveReportsFigures) {
    const std::vector<std::vector<bool>> patterns{{true, false},
                                                  {true, false, false},
                                                  {true, false, false, false},
                                                  {true, false, false, false, false},
                                                  {true, true, false}};
    std::mt19937 random(26);
    for (std::size_t trial = 0; trial < 25; ++trial) {
        const auto& pattern = patterns[trial % patterns.size()];
        PolledRun run = polled_run(300, -3'500 + static_cast<std::int64_t>(trial) * 1'000, pattern,
                                   2'000, static_cast<std::uint32_t>(trial));
        // Missed windows, sometimes several in a row: interpolation stops beyond 4 periods.
        for (std::size_t i = 0; i < run.polled.size();) {
            if (random() % 9 == 0) {
                run.polled.erase(
                    run.polled.begin() + static_cast<std::ptrdiff_t>(i),
                    run.polled.begin() + static_cast<std::ptrdiff_t>(
                                             std::min(run.polled.size(), i + 1 + random() % 3)));
            } else {
                ++i;
            }
        }
        const auto report = report_lateness(run);
        for (const std::uint32_t order : {1U, 2U, 3U}) {
            expect_report_figures(deliver(run, order * 100 + static_cast<std::uint32_t>(trial)),
                                  run, report, "trial " + std::to_string(trial));
        }
    }
}

// Metamorphic: the path's timestamps all later by D, the unpolled and polled means move by D
// and nothing else changes.
TEST(LiveBiasPolled, APathLaterByDIsDLater) {
    const PolledRun run = polled_run(200, 9'000, {true, false, false}, 1'500, 3);
    const auto before = deliver(run, 5);
    for (const std::int64_t d : {-40'000, 250, 123'456}) {
        PolledRun shifted = run;
        for (auto& pulse : shifted.path) {
            pulse.timestamp_ns += d;
        }
        const auto after = deliver(shifted, 6);
        EXPECT_EQ(after.late_ns.summary().count, before.late_ns.summary().count) << d;
        EXPECT_NEAR(after.late_ns.summary().mean, before.late_ns.summary().mean + d, 1e-6) << d;
        EXPECT_NEAR(after.polled_late_ns.summary().mean, before.polled_late_ns.summary().mean + d,
                    1e-6)
            << d;
        EXPECT_EQ(after.unpaired, before.unpaired) << d;
    }
}

// Two path edges in one period (a bouncing line, a duplicate edge): report pairs the polled
// edge with the nearer only, mutual nearest; the other has no interpolation (it sits on the
// polled period) and is unpaired. Whichever of the two comes first, and however delivered.
TEST(LiveBiasPolled, APolledEdgePairsOnlyItsNearestPathEdge) {
    for (const std::int64_t extra : {-300'000'000, -20'000, 20'000, 300'000'000}) {
        PolledRun run = polled_run(41, 11'700, {true, false});
        // A second edge near polled period 10's (the path's edge there is 6 µs late).
        const core::Pulse near{11, run_start + std::int64_t{10} * 1'000'020'000 + 6'000 + extra,
                               core::Edge::assert_edge};
        run.path.insert(std::upper_bound(run.path.begin(), run.path.end(), near,
                                         [](const core::Pulse& a, const core::Pulse& b) {
                                             return a.timestamp_ns < b.timestamp_ns;
                                         }),
                        near);
        for (std::size_t i = 0; i < run.path.size(); ++i) {
            run.path[i].sequence = i + 1;  // the kernel counts the bounce too
        }
        const auto report = report_lateness(run);
        for (const std::uint32_t order : {1U, 2U, 3U}) {
            expect_report_figures(deliver(run, order), run, report,
                                  "extra edge " + std::to_string(extra));
        }
    }
}

// A clock stepped back an hour (both paths see it): whichever side delivers the new times
// first, the pairing loses at most a ring of edges, counted unpaired, and gives no wrong figure
// meanwhile; then every period is paired again.
TEST(LiveBiasPolled, AClockStepBackCostsAtMostARingAndNoWrongFigure) {
    const PolledRun before = polled_run(40, 11'700, {true, false});
    const PolledRun after_step = [] {
        PolledRun r = polled_run(400, 11'700, {true, false});
        for (auto& pulse : r.path) {
            pulse.timestamp_ns -= 3600 * ns_per_second;
        }
        for (auto& pulse : r.polled) {
            pulse.timestamp_ns -= 3600 * ns_per_second;
        }
        return r;
    }();
    for (const bool path_first : {true, false}) {
        LiveBias bias(ns_per_second, core::Edge::assert_edge);
        bias.add(LiveBias::Side::path, before.path);
        bias.add(LiveBias::Side::reference, before.polled);
        // The first side over the step delivers 10 periods before the other follows.
        const auto& first = path_first ? after_step.path : after_step.polled;
        const auto& second_side = path_first ? after_step.polled : after_step.path;
        const auto first_side = path_first ? LiveBias::Side::path : LiveBias::Side::reference;
        const auto other_side = path_first ? LiveBias::Side::reference : LiveBias::Side::path;
        const std::size_t ahead = path_first ? 20 : 10;
        bias.add(first_side, std::span(first).first(ahead));
        // Then both in time order, one edge at a time.
        std::size_t i = ahead;
        std::size_t j = 0;
        while (i < first.size() || j < second_side.size()) {
            const bool from_first =
                j == second_side.size() ||
                (i < first.size() && first[i].timestamp_ns <= second_side[j].timestamp_ns);
            if (from_first) {
                bias.add(first_side, std::span(first).subspan(i++, 1));
            } else {
                bias.add(other_side, std::span(second_side).subspan(j++, 1));
            }
        }
        const auto run = bias.run();
        const auto unpolled = run.late_ns.summary();
        const auto polled = run.polled_late_ns.summary();
        EXPECT_NEAR(unpolled.mean, 11'700, 0.5) << path_first;
        EXPECT_DOUBLE_EQ(polled.mean, 6'000) << path_first;
        EXPECT_LE(run.unpaired, LiveBias::ring_size * 2 + 2) << path_first;
        EXPECT_EQ(unpolled.count + polled.count + run.unpaired,
                  before.path.size() + after_step.path.size() - 1)
            << "every path edge once, but the last, waiting: " << path_first;
    }
}

// The reference brackets one edge: the path's other edges have no reference and are not
// counted, not mispaired with the polled edge 200 ms away.
TEST(LiveBiasPolled, ThePathsOtherEdgeIsNeitherPairedNorCounted) {
    const PolledRun run = polled_run(41, 11'700, {true, false});
    LiveBias bias(ns_per_second, core::Edge::assert_edge);
    for (const auto& pulse : run.path) {
        const std::array both{pulse, core::Pulse{pulse.sequence, pulse.timestamp_ns + 200'000'000,
                                                 core::Edge::clear_edge}};
        bias.add(LiveBias::Side::path, both);
    }
    bias.add(LiveBias::Side::reference, run.polled);
    EXPECT_EQ(bias.run().late_ns.summary().count, 20U);
    EXPECT_EQ(bias.run().polled_late_ns.summary().count, 21U);
    EXPECT_EQ(bias.run().unpaired, 0U);
}

// Five periods without a polled edge (missed windows): the periods between are too far from a
// polled edge to interpolate, and are counted unpaired, not given a figure.
TEST(LiveBiasPolled, AcrossMissedWindowsThePeriodsAreUnpaired) {
    PolledRun run = polled_run(21, 11'700, {true});
    run.polled.erase(run.polled.begin() + 5, run.polled.begin() + 9);  // polled 5..8 missed
    const auto live = deliver(run, 9);
    EXPECT_EQ(live.polled_late_ns.summary().count, 17U);
    EXPECT_EQ(live.late_ns.summary().count, 0U) << "4 → 9 spans 5 periods: beyond the budget";
    EXPECT_EQ(live.unpaired, 4U);
    PolledRun three = polled_run(21, 11'700, {true});
    three.polled.erase(three.polled.begin() + 5, three.polled.begin() + 8);  // 4 → 8: 4 periods
    const auto near = deliver(three, 9);
    EXPECT_EQ(near.late_ns.summary().count, 3U);
    EXPECT_NEAR(near.late_ns.summary().mean, 6'000, 0.5) << "the polled periods' lateness, here";
    EXPECT_EQ(near.unpaired, 0U);
}

// A path edge waits for the reference to pass it (its edge may still be in this period), and
// a reference that never does keeps only a ring: memory is fixed, the oldest counted unpaired.
TEST(LiveBiasPolled, APathEdgeWaitsForTheReferenceInARingOfFixedSize) {
    const PolledRun run = polled_run(LiveBias::ring_size + 10, 11'700, {true, false});
    LiveBias bias(ns_per_second, core::Edge::assert_edge);
    bias.add(LiveBias::Side::reference, std::span(run.polled).first(1));
    bias.add(LiveBias::Side::path, std::span(run.path).first(2));
    EXPECT_EQ(bias.run().polled_late_ns.summary().count, 1U);
    EXPECT_EQ(bias.run().late_ns.summary().count, 0U) << "waits for the next polled edge";
    EXPECT_EQ(bias.run().unpaired, 0U);
    bias.add(LiveBias::Side::path, std::span(run.path).subspan(2));
    EXPECT_EQ(bias.run().unpaired, 9U) << "the ring of 64 waiting edges gave up the oldest";
    bias.add(LiveBias::Side::reference, std::span(run.polled).subspan(1));
    const auto all = bias.run();
    EXPECT_EQ(all.unpaired, 9U);
    EXPECT_EQ(all.late_ns.summary().count + all.polled_late_ns.summary().count + all.unpaired,
              run.path.size() - 1)
        << "every path edge once, but the last (no polled edge after it yet)";
}

}  // namespace
}  // namespace ppsbench::session
