// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/utc_time.hpp"

#include <gtest/gtest.h>

namespace ppsbench::core {
namespace {

// 2026-01-01T00:00:00Z, and a time with every field different.
constexpr std::int64_t new_year_ns = 1'767'225'600'000'000'000;
constexpr std::int64_t later_ns = 1'796'086'612'624'589'081;  // 2026-12-01T00:56:52.624589081Z

TEST(FormatUtc, ShowsSecondsOrNanoseconds) {
    EXPECT_EQ(format_utc(new_year_ns, UtcPrecision::seconds), "2026-01-01T00:00:00Z");
    EXPECT_EQ(format_utc(new_year_ns + 1234, UtcPrecision::nanoseconds),
              "2026-01-01T00:00:00.000001234Z");
    EXPECT_EQ(format_utc(later_ns, UtcPrecision::nanoseconds), "2026-12-01T00:56:52.624589081Z");
    EXPECT_EQ(format_utc(later_ns, UtcPrecision::seconds), "2026-12-01T00:56:52Z")
        << "truncated, not rounded: the second the event fell in";
}

TEST(FormatUtc, CompactFormIsForFileNames) {
    EXPECT_EQ(format_utc_compact(later_ns), "20261201T005652Z");
}

TEST(ParseUtc, ReadsBothPrecisionsBack) {
    EXPECT_EQ(parse_utc("2026-12-01T00:56:52.624589081Z"), later_ns);
    EXPECT_EQ(parse_utc("2026-01-01T00:00:00Z"), new_year_ns);
    for (const char* bad : {"", "2026-01-01", "2026-01-01T00:00:00", "2026-13-01T00:00:00Z",
                            "2026-01-01T00:00:00.12Z", "2026-01-01T00:00:00Zjunk"}) {
        EXPECT_FALSE(parse_utc(bad)) << bad;
    }
}

}  // namespace
}  // namespace ppsbench::core
