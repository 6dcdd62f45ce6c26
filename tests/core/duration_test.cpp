// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/duration.hpp"

#include <gtest/gtest.h>

#include "ppsbench/core/error.hpp"

namespace ppsbench::core {
namespace {

using namespace std::chrono_literals;

TEST(ParseDuration, AcceptsEveryUnitPeopleType) {
    EXPECT_EQ(parse_duration("10m", "--duration"), 10min);
    EXPECT_EQ(parse_duration("1h", "--duration"), 1h);
    EXPECT_EQ(parse_duration("30s", "--duration"), 30s);
    EXPECT_EQ(parse_duration("100ms", "--period"), 100ms);
    EXPECT_EQ(parse_duration("250us", "--period"), 250us);
    EXPECT_EQ(parse_duration("1.5s", "--duration"), 1500ms);
    EXPECT_EQ(parse_duration("2d", "--duration"), 48h);
}

// "--max-sigma 3" was read as 3 s and passed every run: a number without a unit is refused,
// and the message says how to write it.
TEST(ParseDuration, BareNumberIsRefusedWithTheUnitsToChooseFrom) {
    try {
        parse_duration("3", "--max-sigma");
        FAIL() << "accepted a bare 3";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("--max-sigma: '3' has no unit; say which, e.g. 3us"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(parse_duration("3us", "--max-sigma"), 3us);
}

TEST(ParseDuration, RejectsNegativeZeroAndGarbageNamingTheOption) {
    for (const char* bad : {"-3", "0", "", "abc", "10 parsecs", "5x", "nan", "1e300h"}) {
        try {
            parse_duration(bad, "--duration");
            FAIL() << "accepted '" << bad << "'";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("--duration"), std::string::npos) << e.what();
        }
    }
}

TEST(FormatDuration, ChoosesAReadableUnit) {
    EXPECT_EQ(format_duration(500ns), "500 ns");
    EXPECT_EQ(format_duration(100ms), "100 ms");
    EXPECT_EQ(format_duration(12500ms), "12.5 s");
    EXPECT_EQ(format_duration(10min + 5s), "10m 05s");
    EXPECT_EQ(format_duration(1h + 2min + 3s), "1h 02m 03s");
}

// Just under a unit boundary the value rounds into the next unit instead of "1e+03 ms".
TEST(FormatDuration, RoundsAcrossAUnitBoundary) {
    EXPECT_EQ(format_duration(999'999'987ns), "1 s");
    EXPECT_EQ(format_duration(999'999ns), "1 ms");
    EXPECT_EQ(format_duration(-999'999ns), "-1 ms");
    EXPECT_EQ(format_duration(1'234'567ns), "1.23 ms");
}

// What an error message suggests must be what the option reads back.
TEST(FormatDurationOption, IsWhatParseDurationReads) {
    EXPECT_EQ(format_duration_option(999'999'987ns), "1s");
    EXPECT_EQ(format_duration_option(2500us), "2.5ms");
    EXPECT_EQ(format_duration_option(250us), "250us");
    EXPECT_EQ(format_duration_option(16s), "16s");
    EXPECT_EQ(format_duration_option(40ns), "40ns");
    for (const Duration d : {Duration(1s), Duration(2500us), Duration(250us), Duration(3h)}) {
        EXPECT_EQ(parse_duration(format_duration_option(d), "--period"), d);
    }
}

}  // namespace
}  // namespace ppsbench::core
