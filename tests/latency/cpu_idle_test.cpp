// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/latency/cpu_idle.hpp"

#include <gtest/gtest.h>

#include "cli.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::latency {
namespace {

// A real /proc/stat from a 2-CPU Debian 12 machine (first lines).
constexpr const char* fixture_start =
    "cpu  4705 356 584 3699176 23060 0 277 0 50 10\n"
    "cpu0 1393 280 255 1834025 3547 0 207 0 0 0\n"
    "cpu1 3312 76 329 1865151 19512 0 70 0 0 0\n"
    "intr 114930548 113199788 3 0 5 263 0 0 0 0\n";
constexpr const char* fixture_end =
    "cpu  5705 356 1584 3700176 23060 0 277 0 50 10\n"
    "cpu0 1393 280 255 1834025 3547 0 207 0 0 0\n";

TEST(CpuIdle, ParsesTheAggregateLineWithoutGuestTime) {
    const auto t = parse_cpu_times(fixture_start, "fixture");
    EXPECT_EQ(t.idle, 3699176U + 23060U);
    EXPECT_EQ(t.total, 4705U + 356 + 584 + 3699176 + 23060 + 0 + 277 + 0);
}

TEST(CpuIdle, FractionOverTheRun) {
    testing::TempDir dir;
    testing::write_text(dir.file("start"), fixture_start);
    testing::write_text(dir.file("end"), fixture_end);
    const auto start = read_cpu_times(dir.file("start"));
    const auto end = read_cpu_times(dir.file("end"));
    // 1000 user + 1000 system + 1000 idle ticks passed.
    ASSERT_TRUE(idle_fraction(start, end));
    EXPECT_DOUBLE_EQ(*idle_fraction(start, end), 1.0 / 3.0);
    EXPECT_FALSE(idle_fraction(start, start));
}

TEST(CpuIdle, OldKernelsWithFourFieldsStillWork) {
    const auto t = parse_cpu_times("cpu 1 2 3 4\n", "old");
    EXPECT_EQ(t.idle, 4U);
    EXPECT_EQ(t.total, 10U);
}

TEST(CpuIdle, BadInputNamesTheFile) {
    EXPECT_THROW(parse_cpu_times("intr 1 2\n", "x"), core::InputError);
    EXPECT_THROW(parse_cpu_times("cpu 1 2\n", "x"), core::InputError);
    EXPECT_THROW(parse_cpu_times("cpu 1 a 3 4\n", "x"), core::InputError);
    try {
        read_cpu_times("/nonexistent/stat");
        FAIL();
    } catch (const core::InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("/nonexistent/stat: cannot read", 0), 0U);
    }
}

}  // namespace
}  // namespace ppsbench::latency
