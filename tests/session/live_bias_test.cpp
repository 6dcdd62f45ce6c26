// SPDX-License-Identifier: GPL-2.0-or-later
// LiveBias pairs a path's edges with a reference's as two capture threads deliver them, in
// whatever order the threads run: the figures are those of pairing the whole series after the
// run, whatever the interleaving, as long as neither side runs more than a ring ahead.
#include "ppsbench/session/live_bias.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ppsbench/core/duration.hpp"

namespace ppsbench::session {
namespace {

using core::ns_per_second;
constexpr std::int64_t start = 1'700'000'000 * ns_per_second;

std::vector<core::Pulse> edges(std::size_t n, std::int64_t late_ns, std::int64_t jitter_ns = 0) {
    std::vector<core::Pulse> pulses;
    for (std::size_t i = 0; i < n; ++i) {
        const auto wobble = jitter_ns * static_cast<std::int64_t>(i % 7) - 3 * jitter_ns;
        pulses.push_back({i + 1,
                          start + static_cast<std::int64_t>(i) * ns_per_second + late_ns + wobble,
                          core::Edge::assert_edge});
    }
    return pulses;
}

TEST(LiveBias, PathFirstOrReferenceFirstGiveTheSameLateness) {
    for (const bool reference_first : {false, true}) {
        LiveBias bias(ns_per_second);
        const auto path = edges(10, 12'000);
        const auto reference = edges(10, 0);
        for (std::size_t i = 0; i < path.size(); ++i) {
            const std::span p(&path[i], 1);
            const std::span r(&reference[i], 1);
            bias.add(reference_first ? LiveBias::Side::reference : LiveBias::Side::path,
                     reference_first ? r : p);
            bias.add(reference_first ? LiveBias::Side::path : LiveBias::Side::reference,
                     reference_first ? p : r);
        }
        const auto run = bias.run().late_ns.summary();
        EXPECT_EQ(run.count, 10U);
        EXPECT_DOUBLE_EQ(run.mean, 12'000.0);
        EXPECT_EQ(bias.run().unpaired, 0U);
    }
}

// Random batch sizes and thread order, each side at most a ring ahead: every edge is paired,
// and the mean is the whole series' mean lateness.
TEST(LiveBias, AnyInterleavingPairsEveryEdge) {
    std::mt19937 random(24);
    const auto path = edges(1000, -3'500, 400);  // early too: the sign is path − reference
    const auto reference = edges(1000, 0);
    double exact = 0;
    for (std::size_t i = 0; i < path.size(); ++i) {
        exact += static_cast<double>(path[i].timestamp_ns - reference[i].timestamp_ns);
    }
    exact /= static_cast<double>(path.size());
    for (int trial = 0; trial < 50; ++trial) {
        LiveBias bias(ns_per_second);
        std::size_t p = 0;
        std::size_t r = 0;
        while (p < path.size() || r < reference.size()) {
            const bool path_turn =
                r == reference.size() ||
                (p < path.size() && p < r + LiveBias::ring_size / 2 && random() % 2 == 0) ||
                (p < path.size() && r >= p + LiveBias::ring_size / 2);
            auto& at = path_turn ? p : r;
            const auto& series = path_turn ? path : reference;
            const std::size_t n = std::min<std::size_t>(1 + random() % 8, series.size() - at);
            bias.add(path_turn ? LiveBias::Side::path : LiveBias::Side::reference,
                     std::span(series).subspan(at, n));
            at += n;
        }
        const auto run = bias.run().late_ns.summary();
        ASSERT_EQ(run.count, 1000U) << "trial " << trial;
        EXPECT_NEAR(run.mean, exact, 1e-6);
        EXPECT_EQ(bias.run().unpaired, 0U);
    }
}

// An edge the reference never saw is counted unpaired once the reference has passed it, and
// does not shift the pairs after it.
TEST(LiveBias, AMissedReferenceEdgeIsUnpairedNotMispaired) {
    LiveBias bias(ns_per_second);
    auto reference = edges(10, 0);
    reference.erase(reference.begin() + 4);
    bias.add(LiveBias::Side::path, edges(10, 12'000));
    bias.add(LiveBias::Side::reference, reference);
    const auto run = bias.run();
    EXPECT_EQ(run.late_ns.summary().count, 9U);
    EXPECT_DOUBLE_EQ(run.late_ns.summary().mean, 12'000.0);
    EXPECT_EQ(run.unpaired, 1U);
}

// Only edges of the same kind pair: a path of both edges against an assert-only reference.
TEST(LiveBias, PairsOnlyTheSameEdge) {
    LiveBias bias(ns_per_second);
    std::vector<core::Pulse> path;
    for (const auto& pulse : edges(5, 12'000)) {
        path.push_back(pulse);
        path.push_back({pulse.sequence, pulse.timestamp_ns + 100'000'000, core::Edge::clear_edge});
    }
    bias.add(LiveBias::Side::path, path);
    bias.add(LiveBias::Side::reference, edges(5, 0));
    EXPECT_EQ(bias.run().late_ns.summary().count, 5U);
    EXPECT_DOUBLE_EQ(bias.run().late_ns.summary().mean, 12'000.0);
}

// A side far ahead keeps only a ring of edges: memory is fixed, the oldest are given up.
TEST(LiveBias, ASideFarAheadKeepsOnlyARing) {
    LiveBias bias(ns_per_second);
    bias.add(LiveBias::Side::path, edges(LiveBias::ring_size + 10, 12'000));
    EXPECT_EQ(bias.run().unpaired, 10U);
    bias.add(LiveBias::Side::reference, edges(LiveBias::ring_size + 10, 0));
    EXPECT_EQ(bias.run().late_ns.summary().count, LiveBias::ring_size);
    // The reference's first 10 wait for path edges the ring gave up: not counted twice.
    EXPECT_EQ(bias.run().unpaired, 10U);
}

TEST(LiveBias, IntervalsCloseIntoLastAndAddUpToTheRun) {
    LiveBias bias(ns_per_second);
    const auto path = edges(6, 10'000);
    const auto reference = edges(6, 0);
    bias.add(LiveBias::Side::path, std::span(path).first(3));
    bias.add(LiveBias::Side::reference, std::span(reference).first(3));
    bias.close_interval();
    EXPECT_EQ(bias.last().late_ns.summary().count, 3U);
    bias.add(LiveBias::Side::path, std::span(path).subspan(3));
    bias.add(LiveBias::Side::reference, std::span(reference).subspan(3));
    bias.close_interval();
    EXPECT_EQ(bias.last().late_ns.summary().count, 3U);
    EXPECT_EQ(bias.run().late_ns.summary().count, 6U);
    bias.close_interval();
    EXPECT_EQ(bias.last().late_ns.summary().count, 0U);
}

}  // namespace
}  // namespace ppsbench::session
