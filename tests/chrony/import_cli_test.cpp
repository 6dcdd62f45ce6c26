// SPDX-License-Identifier: GPL-2.0-or-later
// `ppsbench import` end to end: the built binary, real files.
#include <gtest/gtest.h>

#include "cli.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench {
namespace {

using ppsbench::testing::run_ppsbench;

constexpr const char* log_text =
    "2009-11-30 14:33:27.000000 PPS     0 N 1  4.900000e-07 -6.741777e-07  1.000e-06\n"
    "2009-11-30 14:33:27.000000 PPS     - N -       -       -6.741777e-07  1.000e-06\n"
    "2009-11-30 14:33:28.000000 PPS     0 N 1 -1.234000e-06 -1.000000e-06  1.000e-06\n"
    "this line is broken\n"
    "2009-11-30 14:33:29.000000 PPS     0 N 1  2.000000e-09  0.000000e+00  1.000e-06\n";

TEST(ImportCommand, RefclocksLogBecomesACaptureFileThatReportReads) {
    ppsbench::testing::TempDir dir;
    ppsbench::testing::write_text(dir.file("refclocks.log"), log_text);
    const auto out = dir.file("run.csv");
    const auto r =
        run_ppsbench({"import", "chrony-refclocks", dir.file("refclocks.log"), "-o", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("3 pulses of refclock PPS"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("refclocks.log:4: has 4 fields, expected 9"), std::string::npos) << r.err;

    const auto file = store::read_capture_file(out);
    ASSERT_EQ(file.pulses.size(), 3U);
    EXPECT_EQ(file.pulses[1].timestamp_ns, 1259591608LL * 1'000'000'000 + 1234);
    EXPECT_EQ(file.meta.at("source_kind"), "chrony-refclocks");
    EXPECT_NE(file.end_record(), nullptr);
    EXPECT_EQ(run_ppsbench({"report", out}).exit_code, 0);

    EXPECT_EQ(run_ppsbench({"import", "chrony-refclocks", dir.file("refclocks.log"), "-o", out})
                  .exit_code,
              2)
        << "no overwrite without --force";
    const auto strict = run_ppsbench({"import", "chrony-refclocks", dir.file("refclocks.log"), "-o",
                                      dir.file("strict.csv"), "--strict"});
    EXPECT_EQ(strict.exit_code, 2);
    EXPECT_NE(strict.err.find("refclocks.log:4:"), std::string::npos) << strict.err;
}

TEST(ImportCommand, TrackingLogBecomesCsv) {
    ppsbench::testing::TempDir dir;
    ppsbench::testing::write_text(
        dir.file("tracking.log"),
        "2017-08-22 13:22:36 203.0.113.15     2     -3.541      0.075 -8.621e-06 N "
        "2  2.940e-03 -2.084e-04  1.534e-02  3.472e-04  8.304e-03\n");
    const auto r = run_ppsbench({"import", "chrony-tracking", dir.file("tracking.log")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("1503408156000000000,203.0.113.15,2,Normal,-8621,8621,"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(run_ppsbench({"import", "chrony-nothing", "x"}).exit_code, 2);
    EXPECT_EQ(run_ppsbench({"import"}).exit_code, 2);
}

}  // namespace
}  // namespace ppsbench
