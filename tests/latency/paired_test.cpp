// SPDX-License-Identifier: GPL-2.0-or-later
// Pairing two paths' views of the same edges: seeded synthetic streams with a known offset and
// jitter, pulses missed on one side, and a monotonic path whose REALTIME − MONOTONIC offset
// steps mid-run.
#include "ppsbench/latency/paired.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "ppsbench/analysis/latency_runs.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/latency_tables.hpp"

namespace ppsbench::latency {
namespace {

using core::Edge;

constexpr std::int64_t second = 1'000'000'000;
constexpr std::int64_t epoch = 1'767'225'600LL * second;

store::CaptureFile make_file(const std::string& clock, const std::string& source) {
    store::CaptureFile f;
    f.path = source + ".csv";
    f.meta = {{"clock", clock}, {"source", source}, {"period_ns", second}};
    f.run_meta = store::run_meta_from_json(f.meta);  // as the reader fills it
    f.notes.push_back({"end", {{"stop_reason", "count"}}, 0});
    return f;
}

// Path A: a PPS device (realtime) with σ 2 µs; path B: the same edges on a GPIO line (monotonic)
// 15 µs later with σ 1 µs. Missed pulses on each side; the monotonic offset steps by 0.4 s
// (a clock step) half-way.
struct Scenario {
    store::CaptureFile a = make_file("realtime", "pps:/dev/pps0");
    store::CaptureFile b = make_file("monotonic", "gpio:gpiochip0:27");
    std::vector<std::int64_t> true_difference;  // per edge present on both sides
};

Scenario make_scenario(std::uint64_t seed, std::size_t n) {
    Scenario s;
    std::mt19937_64 random(seed);
    std::normal_distribution<double> jitter_a(0.0, 2000.0);
    std::normal_distribution<double> jitter_b(15'000.0, 1000.0);
    s.b.extra_columns = {std::string(offset_column), std::string(bracket_column)};
    std::int64_t offset = epoch - 12'345 * second;  // realtime − monotonic at boot + 12345 s
    for (std::size_t k = 0; k < n; ++k) {
        if (k == n / 2) {
            offset += 400'000'000;  // chrony steps the clock: realtime jumps by 0.4 s
        }
        const std::int64_t edge_rt = epoch + static_cast<std::int64_t>(k) * second;
        const auto a_ts = edge_rt + std::llround(jitter_a(random));
        const auto b_ts = edge_rt + std::llround(jitter_b(random));
        const bool a_missed = k % 97 == 13;
        const bool b_missed = k % 89 == 40;
        if (!a_missed) {
            s.a.pulses.push_back({k + 1, a_ts, Edge::assert_edge});
        }
        if (!b_missed) {
            // The GPIO path stamps CLOCK_MONOTONIC; the offset sampled beside it converts back.
            s.b.pulses.push_back({k + 1, b_ts - offset, Edge::assert_edge});
            s.b.extra_values.push_back(offset);
            s.b.extra_values.push_back(60);
        }
        if (!a_missed && !b_missed) {
            s.true_difference.push_back(b_ts - a_ts);
        }
    }
    return s;
}

TEST(Paired, CommonClockPrefersRealtime) {
    EXPECT_EQ(common_clock(core::ClockId::monotonic, core::ClockId::realtime),
              core::ClockId::realtime);
    EXPECT_EQ(common_clock(core::ClockId::monotonic, core::ClockId::monotonic),
              core::ClockId::monotonic);
}

TEST(Paired, TimeBaseConversionUsesEachPulsesOffset) {
    const auto s = make_scenario(1, 10);
    const auto t = analysis::on_time_base(s.b, core::ClockId::realtime);
    ASSERT_EQ(t.size(), s.b.pulses.size());
    for (std::size_t i = 0; i < t.size(); ++i) {
        EXPECT_EQ(t[i].time_ns, s.b.pulses[i].timestamp_ns + s.b.extra(i, 0));
        EXPECT_EQ(t[i].index, i);
    }
    // A monotonic file without the offset column cannot be converted: say how to get one.
    auto plain = make_file("monotonic", "gpio:gpiochip0:27");
    plain.pulses.push_back({1, 5, Edge::assert_edge});
    try {
        analysis::on_time_base(plain, core::ClockId::realtime);
        FAIL();
    } catch (const core::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("--source A --source B"), std::string::npos);
    }
}

TEST(Paired, RecoversTheKnownDifferenceAcrossMissesAndAClockStep) {
    const auto s = make_scenario(42, 2000);
    const auto dual = analysis::summarize_dual(s.a, s.b);
    EXPECT_EQ(dual.clock, core::ClockId::realtime);
    EXPECT_EQ(dual.pairs, s.true_difference.size());
    EXPECT_EQ(dual.unpaired_a, s.a.pulses.size() - dual.pairs);
    EXPECT_EQ(dual.unpaired_b, s.b.pulses.size() - dual.pairs);
    EXPECT_GT(dual.unpaired_a, 0U);
    EXPECT_GT(dual.unpaired_b, 0U);
    // Every pair's difference is exactly the scripted one: the step is undone per pulse.
    double sum = 0;
    for (const auto d : s.true_difference) {
        sum += static_cast<double>(d);
    }
    EXPECT_NEAR(dual.difference.summary.mean, sum / static_cast<double>(s.true_difference.size()),
                1e-6);
    EXPECT_NEAR(dual.difference.p50, 15'000.0, 300.0);
    EXPECT_NEAR(dual.difference.summary.stddev, std::sqrt(2000.0 * 2000 + 1000.0 * 1000), 150.0);
    EXPECT_GT(dual.fraction_b_later, 0.99);
    EXPECT_NEAR(dual.jitter_a.stddev, 2000.0, 150.0);
    // B's phase offsets exist because it was moved to realtime: 15 µs late, σ 1 µs.
    EXPECT_NEAR(dual.jitter_b.mean, 15'000.0, 100.0);
    ASSERT_TRUE(dual.time_base_b);
    EXPECT_EQ(dual.time_base_b->largest_jump_ns, 400'000'000);
    EXPECT_EQ(dual.time_base_b->max_bracket_ns, 60);
    EXPECT_FALSE(dual.time_base_a);
}

TEST(Paired, NearestMutualPairingNeverShiftsAfterAMiss) {
    std::vector<TimedPulse> a{
        {0, Edge::assert_edge, 0}, {1000, Edge::assert_edge, 1}, {2000, Edge::assert_edge, 2}};
    std::vector<TimedPulse> b{{30, Edge::assert_edge, 0}, {2040, Edge::assert_edge, 1}};
    const auto p = pair_edges(a, b, 500);
    ASSERT_EQ(p.pairs.size(), 2U);
    EXPECT_EQ(p.pairs[0].a, 0U);
    EXPECT_EQ(p.pairs[0].difference_ns, 30);
    EXPECT_EQ(p.pairs[1].a, 2U);
    EXPECT_EQ(p.pairs[1].b, 1U);
    EXPECT_EQ(p.unpaired_a, 1U);
    EXPECT_EQ(p.unpaired_b, 0U);
}

TEST(Paired, OnlyLikeEdgesPairAndTheWindowIsStrict) {
    std::vector<TimedPulse> a{{0, Edge::assert_edge, 0}, {100, Edge::clear_edge, 1}};
    std::vector<TimedPulse> b{{10, Edge::clear_edge, 0}, {600, Edge::assert_edge, 1}};
    const auto p = pair_edges(a, b, 500);
    ASSERT_EQ(p.pairs.size(), 1U);  // clear↔clear 90 ns apart; assert↔assert 600 ≥ 500
    EXPECT_EQ(p.pairs[0].difference_ns, -90);
    EXPECT_EQ(p.unpaired_a, 1U);
    EXPECT_EQ(p.unpaired_b, 1U);
}

TEST(Paired, TwoMonotonicPathsCompareOnMonotonicWithPeriodJitter) {
    auto a = make_file("monotonic", "gpio:gpiochip0:17");
    auto b = make_file("monotonic", "gpio:gpiochip0:27");
    for (std::uint64_t k = 0; k < 100; ++k) {
        const auto t = 5 * second + static_cast<std::int64_t>(k) * second;
        a.pulses.push_back({k + 1, t + (k % 2 == 0 ? 100 : -100), Edge::assert_edge});
        b.pulses.push_back({k + 1, t + 2500, Edge::assert_edge});
    }
    const auto dual = analysis::summarize_dual(a, b);
    EXPECT_EQ(dual.clock, core::ClockId::monotonic);
    EXPECT_EQ(dual.jitter_measure, "period jitter");
    EXPECT_EQ(dual.pairs, 100U);
    EXPECT_DOUBLE_EQ(dual.jitter_b.stddev, 0.0);
    EXPECT_DOUBLE_EQ(dual.jitter_a.peak_to_peak, 400.0);
    const auto table = render::dual_table(dual);
    EXPECT_EQ(table.rows.size(), 3U);
}

}  // namespace
}  // namespace ppsbench::latency
