// SPDX-License-Identifier: GPL-2.0-or-later
// The one rule for what lies between two consecutive pulses (stats::classify_interval,
// events.hpp): missed pulses, unseen kernel events and clock steps, from the interval and the
// kernel's sequence advance. analyze() and the importers both use it.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "ppsbench/stats/events.hpp"

namespace ppsbench::stats {
namespace {

constexpr std::int64_t second_ns = 1'000'000'000;

IntervalRule realtime_rule() {
    return {static_cast<double>(second_ns), second_ns, true};
}
IntervalRule monotonic_rule() {
    return {static_cast<double>(second_ns), second_ns, false};
}

bool nothing_happened(const IntervalVerdict& v) {
    return v.missed == 0 && v.missed_by_sequence == 0 && v.missed_by_time == 0 && v.unseen == 0 &&
           !v.step && v.step_ns == 0;
}

TEST(IntervalRule, OnePeriodWithOneEventIsAnOrdinaryPulse) {
    EXPECT_TRUE(
        nothing_happened(classify_interval({second_ns + 3'000, 1, std::nullopt}, realtime_rule())));
    EXPECT_TRUE(nothing_happened(
        classify_interval({second_ns - 3'000, std::nullopt, std::nullopt}, monotonic_rule())));
}

TEST(IntervalRule, AnEmptySlotTheKernelCountedIsAMissedPulse) {
    const IntervalVerdict v = classify_interval({2 * second_ns, 2, std::nullopt}, realtime_rule());
    EXPECT_EQ(v.missed, 1u);
    EXPECT_EQ(v.missed_by_sequence, 1u);
    EXPECT_EQ(v.unseen, 0u);
    EXPECT_FALSE(v.step);
}

TEST(IntervalRule, ASequenceSkipWithoutAnEmptySlotIsAnUnseenEvent) {
    const IntervalVerdict v = classify_interval({second_ns, 2, std::nullopt}, realtime_rule());
    EXPECT_EQ(v.missed, 0u);
    EXPECT_EQ(v.unseen, 1u);
}

TEST(IntervalRule, WithoutSequenceEvidenceTimeAloneCountsTheSlots) {
    const IntervalVerdict v =
        classify_interval({4 * second_ns, std::nullopt, std::nullopt}, realtime_rule());
    EXPECT_EQ(v.missed, 3u);
    EXPECT_EQ(v.missed_by_time, 3u);
}

TEST(IntervalRule, TimeTheSequenceCannotAccountForIsAClockStepOnRealtime) {
    const std::int64_t year_ns = 365LL * 86'400 * second_ns;
    const IntervalVerdict v =
        classify_interval({year_ns + second_ns, 1, std::nullopt}, realtime_rule());
    EXPECT_TRUE(v.step);
    EXPECT_EQ(v.step_ns, year_ns);
    EXPECT_EQ(v.missed, 0u);

    // The same interval on a clock that cannot step is missed pulses, by time.
    const IntervalVerdict m = classify_interval({3 * second_ns, 1, std::nullopt}, monotonic_rule());
    EXPECT_FALSE(m.step);
    EXPECT_EQ(m.missed, 2u);
}

TEST(IntervalRule, AShortIntervalIsAStepBackOnlyWhenTheNextPulseKeepsTheNewRhythm) {
    const std::int64_t short_ns = 300'000'000;
    const IntervalVerdict back = classify_interval({short_ns, 1, second_ns}, realtime_rule());
    EXPECT_TRUE(back.step);
    EXPECT_EQ(back.step_ns, short_ns - second_ns);

    const IntervalVerdict glitch =
        classify_interval({short_ns, 1, second_ns - short_ns}, realtime_rule());
    EXPECT_FALSE(glitch.step);
}

// classify_interval() decides one-event, one-period intervals inline (it runs for every pulse);
// the full rule must say the same about every one of them, at the bounds too.
TEST(IntervalRule, TheInlineShortcutAgreesWithTheFullRule) {
    // Issue 22: with contiguous kernel numbers on a realtime clock the bounds are P/4 off one
    // period (a ±P/2 step is proven), so those of the other rules are checked where they apply.
    const std::vector<std::int64_t> intervals = {
        3 * second_ns / 4, 3 * second_ns / 4 + 1, second_ns - 1,    second_ns,
        second_ns + 1,     5 * second_ns / 4 - 1, 5 * second_ns / 4};
    const std::vector<std::optional<std::uint64_t>> events = {std::nullopt, 1};
    const std::vector<std::optional<std::int64_t>> next = {std::nullopt, second_ns, second_ns / 3};
    for (const IntervalRule& rule : {realtime_rule(), monotonic_rule()}) {
        for (const auto interval : intervals) {
            for (const auto& e : events) {
                for (const auto& n : next) {
                    const IntervalEvidence evidence{interval, e, n};
                    const IntervalVerdict full = detail::classify_unusual_interval(evidence, rule);
                    EXPECT_TRUE(nothing_happened(full)) << interval;
                    EXPECT_TRUE(nothing_happened(classify_interval(evidence, rule))) << interval;
                }
            }
        }
    }
    // Just outside the bounds the shortcut must not decide.
    EXPECT_TRUE(
        classify_interval({3 * second_ns / 2 + 1, std::nullopt, std::nullopt}, monotonic_rule())
            .missed == 1u);
    EXPECT_TRUE(classify_interval({second_ns / 2 - 1, 1, second_ns}, realtime_rule()).step);
}

TEST(IntervalRule, SequenceAdvanceIsEvidenceOnlyWhenItIncreasesByAtMostTwoToThe32) {
    EXPECT_EQ(sequence_advance(7, 8), 1u);
    EXPECT_EQ(sequence_advance(7, 7), std::nullopt);
    EXPECT_EQ(sequence_advance(8, 7), std::nullopt);
    EXPECT_EQ(sequence_advance(0, std::uint64_t{1} << 32), std::uint64_t{1} << 32);
    EXPECT_EQ(sequence_advance(0, (std::uint64_t{1} << 32) + 1), std::nullopt);
}

}  // namespace
}  // namespace ppsbench::stats
