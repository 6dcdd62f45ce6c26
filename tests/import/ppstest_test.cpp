// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/ppstest.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "fixture.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::import {
namespace {

using testing::fixture;

CaptureImport import_ppstest_text(const std::string& text, PpstestImportOptions options = {}) {
    std::istringstream in(text);
    return import_ppstest(in, "ppstest.txt", options);
}

constexpr std::int64_t base = 1'700'000'000LL * 1'000'000'000;

TEST(Ppstest, BothEdgesPrintedOncePerFetchBecomeEachEventOnce) {
    const auto r = import_ppstest_text(fixture("ppstest-assert-clear.txt"));
    // 12 lines of 2 events: 6 asserts and 7 clears, each printed twice but the first and last.
    ASSERT_EQ(r.pulses.size(), 13U);
    EXPECT_EQ(r.duplicates, 11U);
    EXPECT_EQ(r.problem_count, 0U);
    EXPECT_EQ(r.metadata["edge"], "both");
    EXPECT_EQ(r.metadata["label"], "/dev/pps0");
    std::size_t asserts = 0;
    for (std::size_t i = 1; i < r.pulses.size(); ++i) {
        EXPECT_LT(r.pulses[i - 1].timestamp_ns, r.pulses[i].timestamp_ns) << "time order";
    }
    for (const auto& p : r.pulses) {
        asserts += p.edge == core::Edge::assert_edge ? 1 : 0;
    }
    EXPECT_EQ(asserts, 6U);
    // assert 101 at 1700000000.999999013: 987 ns before the second, to the nanosecond.
    const auto it = std::find_if(r.pulses.begin(), r.pulses.end(), [](const auto& p) {
        return p.edge == core::Edge::assert_edge && p.sequence == 101;
    });
    ASSERT_NE(it, r.pulses.end());
    EXPECT_EQ(it->timestamp_ns, base + 1'000'000'000 - 987);
    EXPECT_EQ(r.gaps.missed_pulses, 0U);
    EXPECT_EQ(r.gaps.unseen_events, 0U);
}

TEST(Ppstest, AssertOnlyWithRepeatsTimeoutsGapsAndUnseenEvents) {
    const auto r = import_ppstest_text(fixture("ppstest-assert-only.txt"));
    ASSERT_EQ(r.pulses.size(), 7U);
    EXPECT_EQ(r.duplicates, 1U);
    EXPECT_EQ(r.problem_count, 0U) << "CRLF, chatter and the fetch error are ppstest's own";
    EXPECT_EQ(r.metadata["edge"], "assert");
    EXPECT_EQ(r.metadata["import"]["fetch_errors"], 1);
    EXPECT_EQ(r.pulses.front().timestamp_ns, base + 11287);
    EXPECT_EQ(r.pulses.front().sequence, 200U);
    // 203 -> 205 two seconds later: a missed pulse; 205 -> 207 one second later: the kernel
    // counted an event that ppstest never printed, not a missed pulse.
    EXPECT_EQ(r.gaps.missed_pulses, 1U);
    EXPECT_EQ(r.gaps.unseen_events, 1U);
}

// Prompts with a path or a host before `$` or `#`, as pasted from a Pi's shell: the docs accept
// prompt lines, so none of them is "not a ppstest line" (main warned about all but "$ ").
TEST(Ppstest, ShellPromptsWithAPathOrAHostAreChatter) {
    const std::string event =
        "source 0 - assert 1700000000.000011287, sequence: 200 - clear  0.000000000, sequence: 0\n";
    for (const std::string prompt :
         {"~ $ sudo ppstest /dev/pps0", "pi@ntp:~ $ sudo ppstest /dev/pps0",
          "[pi@ntp ~]$ ppstest /dev/pps0", "root@gps:~# ppstest /dev/pps0", "pi@ntp:~ $"}) {
        const auto r = import_ppstest_text(prompt + "\n" + event);
        EXPECT_EQ(r.problem_count, 0U) << prompt;
        EXPECT_EQ(r.pulses.size(), 1U) << prompt;
    }
    // A line of words that merely holds a `$` later on is no prompt.
    EXPECT_EQ(import_ppstest_text("the pulse cost me $ 5 today\n" + event).problem_count, 1U);
}

TEST(Ppstest, AnUnlockedReceiversLongPeriodsAreKeptAsTheyAre) {
    const auto r = import_ppstest_text(fixture("ppstest-unlocked.txt"));
    ASSERT_EQ(r.pulses.size(), 8U);
    EXPECT_EQ(r.pulses[1].timestamp_ns - r.pulses[0].timestamp_ns, 1'083'000'000);
    EXPECT_EQ(r.pulses[7].timestamp_ns - r.pulses[6].timestamp_ns, 1'000'000'000);
    EXPECT_EQ(r.metadata["label"], "/dev/pps1");
    EXPECT_EQ(r.problem_count, 0U);
    EXPECT_EQ(r.gaps.missed_pulses, 0U);
}

TEST(Ppstest, SeveralOutputsAreReadInOrder) {
    PpstestReader reader({});
    std::istringstream a(
        "source 0 - assert 1700000000.000000100, sequence: 1 - clear  "
        "0.000000000, sequence: 0\n");
    std::istringstream b(
        "source 0 - assert 1700000001.000000100, sequence: 2 - clear  "
        "0.000000000, sequence: 0\n");
    reader.read(a, "a.txt");
    reader.read(b, "b.txt");
    const auto r = reader.finish();
    EXPECT_EQ(r.pulses.size(), 2U);
    EXPECT_EQ(r.metadata["import"]["file"].size(), 2U);
}

TEST(Ppstest, ForeignLinesAreCountedAndStrictStopsAtTheFirst) {
    const std::string text =
        "source 0 - assert 1700000000.000000100, sequence: 1 - clear  0.000000000, sequence: 0\n"
        "hello\n"
        "source 0 - assert 1700000001.00000010x, sequence: 2\n"
        "source 1 - assert 1700000002.000000100, sequence: 3\n"
        "source 0 - assert 1700000003.000000100, sequence: 4\n";
    const auto r = import_ppstest_text(text);
    EXPECT_EQ(r.pulses.size(), 2U);
    ASSERT_EQ(r.problem_count, 3U);
    EXPECT_EQ(r.problems[0].to_string(),
              "ppstest.txt:2: not a ppstest line ('source N - assert T, sequence: S ...')");
    EXPECT_EQ(r.problems[2].line, 4U);
    EXPECT_THROW(import_ppstest_text(text, {.strict = true}), core::InputError);
    EXPECT_THROW(import_ppstest_text("trying PPS source \"/dev/pps0\"\n"), core::InputError)
        << "no events at all";
}

}  // namespace
}  // namespace ppsbench::import
