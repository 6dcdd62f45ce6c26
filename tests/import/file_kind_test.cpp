// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/file_kind.hpp"

#include <gtest/gtest.h>

#include "fixture.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::import {
namespace {

using testing::fixture;

TEST(FileKind, EachFormatIsRecognisedByItsBannerOrItsLines) {
    EXPECT_EQ(identify(fixture("chrony-statistics.log")), FileKind::chrony_statistics);
    EXPECT_EQ(identify(fixture("ppstest-assert-clear.txt")), FileKind::ppstest);
    EXPECT_EQ(identify(fixture("ppstest-assert-only.txt")), FileKind::ppstest);
    EXPECT_EQ(identify(fixture("ntp-peerstats")), FileKind::ntp_peerstats);
    // Without banners (logbanner 0), by the columns of the lines.
    EXPECT_EQ(identify("2026-12-01 00:34:45 PPS              1.261e-06  6.475e-07  1.151e-06 "
                       "-1.222e-06  5.676e-04 6.1e-04   3   0   3  0.00\n"),
              FileKind::chrony_statistics);
    EXPECT_EQ(identify("2016-11-09 05:40:50 203.0.113.15    N  2 111 111 1111  10 10 1.0 "
                       "-4.966e-03  2.296e-01  1.577e-05  1.615e-01  7.446e-03 CB00717B 4B D K\n"),
              FileKind::chrony_measurements);
    EXPECT_EQ(identify("2017-08-22 13:22:36 203.0.113.15     2     -3.541      0.075 -8.621e-06 "
                       "N  2  2.940e-03 -2.084e-04  1.534e-02  3.472e-04  8.304e-03\n"),
              FileKind::chrony_tracking);
    EXPECT_EQ(identify("2009-11-30 14:33:27.000000 PPS2    7 N 1  4.900000e-07 -6.741777e-07  "
                       "1.000e-06\n"),
              FileKind::chrony_refclocks);
    EXPECT_EQ(identify("60000 3600.125 -0.000000123 0.012 0.000000954 0.000000110 4\n"),
              FileKind::ntp_loopstats);
    EXPECT_EQ(identify("# ppsbench capture 1\n"), FileKind::ppsbench_capture);
    // The formats of other programs, from real excerpts.
    EXPECT_EQ(identify(fixture("ppswatch-friendlywrt.txt")), FileKind::ppswatch);
    EXPECT_EQ(identify(fixture("ts2phc-extts-cm4.log")), FileKind::ts2phc);
    EXPECT_EQ(identify(fixture("ts2phc-tstamp-i210.log")), FileKind::ts2phc);
    EXPECT_EQ(identify(fixture("phc2sys-k3.log")), FileKind::phc2sys);
    EXPECT_EQ(identify(fixture("openshift-ts2phc-phc2sys.log")), FileKind::ts2phc)
        << "4 ts2phc lines to 2 of phc2sys";
    EXPECT_EQ(identify(fixture("ntpshmmon-manual.txt")), FileKind::ntpshmmon);
    EXPECT_EQ(identify(fixture("ntp-loopstats-pfsense")), FileKind::ntp_loopstats);
    EXPECT_EQ(identify(fixture("ntp-peerstats-pfsense")), FileKind::ntp_peerstats);
    EXPECT_EQ(identify("  \n\n"), FileKind::empty);
    EXPECT_EQ(identify("hello world\n"), FileKind::unknown);
}

TEST(FileKind, AnImporterRefusesAnotherFormatNamingIt) {
    try {
        require_kind(fixture("chrony-statistics.log"), FileKind::chrony_tracking, "statistics.log");
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "statistics.log: this is chrony's statistics.log; import chrony-tracking "
                  "reads chrony's tracking.log; use 'ppsbench import chrony-statistics' for it");
    }
    try {
        require_kind(fixture("ppstest-assert-only.txt"), FileKind::chrony_refclocks, "p.txt");
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "p.txt: this is ppstest output; import chrony-refclocks reads chrony's "
                  "refclocks.log; use 'ppsbench import ppstest' for it");
    }
    try {
        require_kind(fixture("ntp-loopstats"), FileKind::ntp_peerstats, "loopstats");
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "loopstats: this is ntpd/NTPsec loopstats; import ntp-peerstats reads "
                  "ntpd/NTPsec peerstats; give it with --loopstats to check the peerstats "
                  "against it, or use 'ppsbench import ntp-loopstats' for its CSV");
    }
    EXPECT_NO_THROW(require_kind(fixture("ntp-peerstats"), FileKind::ntp_peerstats, "x"));
    EXPECT_NO_THROW(require_kind("", FileKind::ppstest, "x")) << "an empty rotated log is fine";
    EXPECT_NO_THROW(require_kind("garbage\n", FileKind::ppstest, "x"))
        << "unrecognisable: the parser says what is wrong, line by line";
}

// The formats named in refusals are the table's (import/formats.hpp).
TEST(FileKind, EveryKindAFormatReadsNamesThatFormat) {
    EXPECT_EQ(import_format(FileKind::ppswatch), "ppswatch");
    EXPECT_EQ(import_format(FileKind::ntp_loopstats), "ntp-loopstats");
    EXPECT_EQ(import_format(FileKind::chrony_statistics), "chrony-statistics");
    EXPECT_EQ(import_format(FileKind::ntp_clockstats), "");
    try {
        require_kind(fixture("ts2phc-extts-cm4.log"), FileKind::ntp_peerstats, "t.log");
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "t.log: this is linuxptp's ts2phc log; import ntp-peerstats reads ntpd/NTPsec "
                  "peerstats; use 'ppsbench import ts2phc' for it");
    }
}

}  // namespace
}  // namespace ppsbench::import
