// SPDX-License-Identifier: GPL-2.0-or-later
// PackedPulses keeps a capture's pulses in 12 bytes and a bit each (issue 26) and gives back
// exactly the Pulse values it was given, whatever their sequence numbers and timestamps.
#include "ppsbench/core/packed_pulses.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

namespace ppsbench::core {
namespace {

std::vector<Pulse> read_back(const PackedPulses& packed) {
    std::vector<Pulse> out;
    for (const Pulse p : packed) {
        out.push_back(p);
    }
    return out;
}

void expect_exact(const std::vector<Pulse>& pulses) {
    const PackedPulses packed(pulses);
    ASSERT_EQ(packed.size(), pulses.size());
    for (std::size_t i = 0; i < pulses.size(); ++i) {
        ASSERT_EQ(packed[i], pulses[i]) << "pulse " << i;
        ASSERT_EQ(packed.timestamp_ns(i), pulses[i].timestamp_ns);
        ASSERT_EQ(packed.sequence(i), pulses[i].sequence);
        ASSERT_EQ(packed.edge(i), pulses[i].edge);
    }
    EXPECT_EQ(packed.unpack(), pulses);
    EXPECT_EQ(read_back(packed), pulses);
    const bool one_edge = std::all_of(pulses.begin(), pulses.end(),
                                      [&](const Pulse& p) { return p.edge == pulses[0].edge; });
    EXPECT_EQ(packed.one_edge(), one_edge);
}

TEST(PackedPulses, GivesBackTheUsualCaptureExactlyIn12BytesAndABitAPulse) {
    std::vector<Pulse> pulses;
    for (std::uint64_t s = 1; s <= 1000; ++s) {
        pulses.push_back({s + (s > 500 ? 3 : 0),
                          1'767'225'600'000'000'000 + 1'000'000'000 * static_cast<std::int64_t>(s),
                          s % 2 == 0 ? Edge::clear_edge : Edge::assert_edge});
    }
    expect_exact(pulses);
    PackedPulses packed(pulses);
    // 8 for the timestamp, 4 for the sequence number, a bit for the edge (in 64-bit words).
    EXPECT_LE(packed.capacity_bytes(), 12 * pulses.size() + pulses.size() / 8 + 8);
}

// The extremes of each field: the int64 timestamps at both ends, sequence numbers from 0 to 2^64 -
// 1, below the first one (a counter that restarts) and more than 2^32 above it, where every pulse
// keeps its uint64 from then on.
TEST(PackedPulses, GivesBackEveryFieldAtItsExtremes) {
    const std::int64_t big = std::numeric_limits<std::int64_t>::max();
    const std::int64_t low = std::numeric_limits<std::int64_t>::min();
    expect_exact({{5, big, Edge::clear_edge},
                  {6, low, Edge::assert_edge},
                  {7, 0, Edge::clear_edge},
                  {8, -1, Edge::assert_edge}});
    expect_exact({{0, 1, Edge::assert_edge}, {~std::uint64_t{0}, 2, Edge::clear_edge}});
    expect_exact(
        {{1000, 1, Edge::assert_edge}, {999, 2, Edge::assert_edge}, {1001, 3, Edge::assert_edge}});
    expect_exact({{10, 1, Edge::assert_edge},
                  {10 + (std::uint64_t{1} << 32) - 1, 2, Edge::assert_edge},
                  {10 + (std::uint64_t{1} << 32), 3, Edge::clear_edge},
                  {11, 4, Edge::assert_edge}});
    expect_exact({});
    // One edge over whole words of edge bits and a part word, then a different last edge.
    for (const Edge edge : {Edge::assert_edge, Edge::clear_edge}) {
        std::vector<Pulse> same(130, Pulse{1, 2, edge});
        expect_exact(same);
        same.back().edge = edge == Edge::clear_edge ? Edge::assert_edge : Edge::clear_edge;
        expect_exact(same);
        same[127].edge = same.back().edge;
        same.back().edge = edge;
        expect_exact(same);
    }
}

// Random pulses of every kind round-trip, and pushing one at a time equals packing a span.
TEST(PackedPulses, RandomPulsesRoundTrip) {
    std::mt19937_64 random(26);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<Pulse> pulses(random() % 300);
        const std::uint64_t spread = trial % 3 == 0 ? ~std::uint64_t{0} : 1000;
        std::uint64_t sequence = random();
        for (Pulse& p : pulses) {
            sequence += random() % 4 == 0 ? random() % spread : 1;
            p.sequence = sequence;
            p.timestamp_ns = static_cast<std::int64_t>(random());
            p.edge = random() % 2 == 0 ? Edge::assert_edge : Edge::clear_edge;
        }
        expect_exact(pulses);
        PackedPulses one_by_one;
        for (const Pulse& p : pulses) {
            one_by_one.push_back(p);
        }
        ASSERT_EQ(one_by_one.unpack(), pulses);
    }
}

}  // namespace
}  // namespace ppsbench::core
