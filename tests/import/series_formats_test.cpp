// SPDX-License-Identifier: GPL-2.0-or-later
// The series formats, through the table's readers, from real excerpts: each value as the log
// wrote it, in the CSV's units (tests/import/fixtures/README.md).
#include <gtest/gtest.h>

#include <sstream>

#include "fixture.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/import/formats.hpp"

namespace ppsbench::import {
namespace {

using testing::fixture_path;

SeriesImport read_series(std::string_view format, const std::string& file,
                         ImportOptions options = {}) {
    const auto* row = find_import_format(format);
    EXPECT_NE(row, nullptr) << format;
    return std::get<SeriesImport>(row->read({fixture_path(file)}, options));
}

TEST(NtpLoopstats, EachLineIsARowInNanosecondsAndPpm) {
    const auto s = read_series("ntp-loopstats", "ntp-loopstats-pfsense");
    ASSERT_EQ(s.rows.size(), 40U);
    EXPECT_EQ(s.columns.front(), "time_ns");
    // 61016 2.878 0.000001853 -33.344 0.000003510 0.002074 3
    const std::int64_t t = ((61016LL - 40587) * 86400 + 2) * 1'000'000'000 + 878'000'000;
    EXPECT_EQ(s.rows[0], (std::vector<std::string>{std::to_string(t), "1853", "-33.344", "3510",
                                                   "0.002074", "3"}));
    EXPECT_EQ(s.problem_count, 0U);
}

TEST(Phc2sys, EachUpdateIsARowWithItsServoStateAsANumber) {
    const auto s = read_series("phc2sys", "phc2sys-k3.log");
    ASSERT_EQ(s.rows.size(), 7U);
    EXPECT_EQ(s.rows[0], (std::vector<std::string>{"140.943", "CLOCK_REALTIME", "-101", "2", "-32",
                                                   "291", "phc"}));
    EXPECT_EQ(s.rows[1][4], "140") << "+140 ppb";
}

TEST(ChronyStatistics, EachUpdateOfEachSourceIsARow) {
    const auto s = read_series("chrony-statistics", "chrony-statistics.log");
    ASSERT_FALSE(s.rows.empty());
    // 2026-12-01 00:34:04 PPS 1.261e-06 6.475e-07 1.151e-06 -1.222e-06 5.676e-04 6.1e-04 3 0 3 0.00
    EXPECT_EQ(s.rows[0],
              (std::vector<std::string>{"1796085244000000000", "PPS", "1261", "647.5", "1151",
                                        "-1.222", "567.6", "0.00061", "3", "0", "3", "0"}));
    EXPECT_EQ(s.problem_count, 0U) << "banners are chrony's own";
}

}  // namespace
}  // namespace ppsbench::import
