// SPDX-License-Identifier: GPL-2.0-or-later
// The pulse width of a capture of both edges (issue 24, item 7), against widths written down
// by hand: mean and sample σ (n − 1) of 100 ms − 1 µs, 100 ms, 100 ms + 1 µs are 100 ms and 1 µs.
#include "ppsbench/analysis/pulse_width.hpp"

#include <gtest/gtest.h>

namespace ppsbench::analysis {
namespace {

using core::Edge;
using core::Pulse;

constexpr std::int64_t kSecond = 1'000'000'000;
constexpr std::int64_t kMs = 1'000'000;

std::vector<Pulse> pulses_with_widths(const std::vector<std::int64_t>& widths) {
    std::vector<Pulse> pulses;
    std::uint64_t sequence = 1;
    for (std::size_t i = 0; i < widths.size(); ++i) {
        const auto second = static_cast<std::int64_t>(1'700'000'000 + i) * kSecond;
        pulses.push_back({sequence, second + 3'000, Edge::assert_edge});
        pulses.push_back({sequence, second + 3'000 + widths[i], Edge::clear_edge});
        ++sequence;
    }
    return pulses;
}

TEST(PulseWidth, MeanAndSampleSigmaOfHandWrittenWidths) {
    const auto width =
        pulse_width(pulses_with_widths({100 * kMs - 1'000, 100 * kMs, 100 * kMs + 1'000}), kSecond);
    ASSERT_TRUE(width);
    EXPECT_EQ(width->pulses, 3U);
    EXPECT_DOUBLE_EQ(width->mean_ns, 100.0 * kMs);
    EXPECT_NEAR(width->stddev_ns, 1'000.0, 1e-6);
    EXPECT_DOUBLE_EQ(width->min_ns, 100.0 * kMs - 1'000);
    EXPECT_DOUBLE_EQ(width->max_ns, 100.0 * kMs + 1'000);
}

TEST(PulseWidth, AMissedClearEdgePairsNothing) {
    auto pulses = pulses_with_widths({200 * kMs, 200 * kMs, 200 * kMs});
    pulses.erase(pulses.begin() + 3);  // the second pulse's clear edge
    const auto width = pulse_width(pulses, kSecond);
    ASSERT_TRUE(width);
    EXPECT_EQ(width->pulses, 2U) << "the second assert must not pair with the third clear";
    EXPECT_DOUBLE_EQ(width->mean_ns, 200.0 * kMs);
    EXPECT_DOUBLE_EQ(width->stddev_ns, 0.0);
}

TEST(PulseWidth, ShiftingEveryEdgeByTheSameTimeChangesNothing) {
    // Metamorphic: the width is a difference of two edges, so a common offset cancels.
    auto pulses = pulses_with_widths({100 * kMs, 101 * kMs, 99 * kMs, 100 * kMs});
    const auto before = pulse_width(pulses, kSecond);
    for (auto& pulse : pulses) {
        pulse.timestamp_ns += 123'456'789;
    }
    const auto after = pulse_width(pulses, kSecond);
    ASSERT_TRUE(before && after);
    EXPECT_DOUBLE_EQ(before->mean_ns, after->mean_ns);
    EXPECT_DOUBLE_EQ(before->stddev_ns, after->stddev_ns);
}

TEST(PulseWidth, OneEdgeOnlyHasNoWidth) {
    std::vector<Pulse> asserts;
    for (std::uint64_t i = 1; i <= 5; ++i) {
        asserts.push_back({i, static_cast<std::int64_t>(i) * kSecond, Edge::assert_edge});
    }
    EXPECT_FALSE(pulse_width(asserts, kSecond));
    EXPECT_FALSE(pulse_width({}, kSecond));
}

}  // namespace
}  // namespace ppsbench::analysis
