// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/logs.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "chronyd_fixture.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/process.hpp"
#include "ppsbench/stats/offsets.hpp"

namespace ppsbench::chrony {
namespace {

using namespace std::chrono_literals;

// As chrony 4.3 writes it: banner, raw PPS samples, a filtered sample.
constexpr const char* refclocks_header =
    "===============================================================================\n"
    "   Date (UTC) Time         Refid  DP L P  Raw offset   Cooked offset      Disp.\n"
    "===============================================================================\n";

RefclocksImport import_refclocks_text(const std::string& text,
                                      RefclocksImportOptions options = {}) {
    std::istringstream in(text);
    return import_refclocks_log(in, "refclocks.log", options);
}

TEST(RefclocksLog, RealChronydLogGivesBackTheSentPulses) {
    if (!testing::chronyd_installed()) {
        GTEST_SKIP() << testing::chronyd_path() << " is not installed (apt install chrony)";
    }
    testing::ChronydFixture chronyd;
    ASSERT_TRUE(chronyd.wait_synchronised(15s)) << chronyd.chronyd_output();
    chronyd.wait_pulses(6, 10s);
    chronyd.pause_feed();
    std::this_thread::sleep_for(300ms);
    const auto sent = chronyd.sent_pulses();

    const auto imported = import_refclocks_log(chronyd.refclocks_log(), {});
    EXPECT_EQ(imported.refid, "PPS");
    EXPECT_EQ(imported.problem_count, 0U);
    EXPECT_GT(imported.filtered_lines, 0U);
    ASSERT_EQ(imported.pulses.size(), sent.size()) << "every pulse chronyd accepted is logged";
    for (std::size_t i = 0; i < sent.size(); ++i) {
        // The raw offset is logged with 7 significant digits, so whole-ns jitter comes back
        // exactly: the imported pulse is the timestamp the simulated device produced.
        EXPECT_EQ(imported.pulses[i].timestamp_ns, sent[i].timestamp_ns) << "pulse " << i;
        EXPECT_EQ(stats::phase_offset_ns(imported.pulses[i].timestamp_ns, 1'000'000'000),
                  stats::phase_offset_ns(sent[i].timestamp_ns, 1'000'000'000));
        EXPECT_EQ(imported.pulses[i].sequence, i) << "no second was skipped";
    }
    EXPECT_EQ(imported.metadata["source_kind"], "chrony-refclocks");
    EXPECT_EQ(imported.metadata["import"]["pulses"], sent.size());
    EXPECT_EQ(imported.metadata["period_ns"], 1'000'000'000);
}

TEST(TrackingLog, RealChronydLogReproducesChronycsRmsOffset) {
    if (!testing::chronyd_installed()) {
        GTEST_SKIP() << testing::chronyd_path() << " is not installed (apt install chrony)";
    }
    testing::ChronydFixture chronyd;
    ASSERT_TRUE(chronyd.wait_synchronised(15s)) << chronyd.chronyd_output();
    chronyd.wait_pulses(7, 10s);
    chronyd.pause_feed();
    std::this_thread::sleep_for(1500ms);
    const auto tracking = parse_tracking(run_chronyc(chronyd.chronyc(), "tracking").out);
    // The same report as people paste it (no -c), for the cross-check below.
    const auto pasted =
        core::run_process({"chronyc", "-h", chronyd.socket_path(), "tracking"}, 3000ms);

    const auto log = import_tracking_log(chronyd.tracking_log(), {});
    EXPECT_EQ(log.problem_count, 0U);
    ASSERT_GE(log.entries.size(), 3U);
    EXPECT_EQ(log.entries.front().leap, LeapStatus::not_synchronised) << "chronyd's start line";
    EXPECT_FALSE(log.entries.front().rms_offset_ns);
    const auto& last = log.entries.back();
    EXPECT_EQ(last.reference, "PPS");
    EXPECT_EQ(last.leap, LeapStatus::normal);
    ASSERT_TRUE(last.rms_offset_ns);
    // tracking.log prints offsets with 4 significant digits, chronyc the RMS to the ns.
    const double expected = static_cast<double>(tracking.rms_offset_ns);
    EXPECT_NEAR(*last.rms_offset_ns, expected, 1e-3 * expected + 1.0)
        << "log entries: " << log.entries.size();

    // chronyc's own report pasted after the log: found, read whole and agreeing with it.
    ASSERT_EQ(pasted.exit_code, 0) << pasted.err;
    std::ifstream in(chronyd.tracking_log());
    std::stringstream text;
    text << in.rdbuf() << pasted.out;
    TrackingImportOptions strict;
    strict.strict = true;  // a half report or a contradiction would throw
    const auto both = import_tracking_log(text, "tracking.log", strict);
    EXPECT_EQ(both.problem_count, 0U);
    EXPECT_EQ(both.entries.size(), log.entries.size());
    ASSERT_FALSE(both.notes.empty());
    EXPECT_NE(both.notes.back().find("cross-checked: its Last offset"), std::string::npos)
        << both.notes.back() << "\n"
        << pasted.out;
}

TEST(RefclocksLog, ReconstructsTimestampFromOffsetAndNearestSecond) {
    const auto r = import_refclocks_text(std::string(refclocks_header) +
                                         "2009-11-30 14:33:27.000000 PPS2    7 N 1  4.900000e-07 "
                                         "-6.741777e-07  1.000e-06\n"
                                         "2009-11-30 14:33:27.000000 PPS2    - N -       -       "
                                         "-6.741777e-07  1.000e-06\n"
                                         "2009-11-30 14:33:27.999999 PPS2    8 N 1 -1.234000e-06 "
                                         "-1.000000e-06  1.000e-06\n"
                                         "2009-11-30 14:33:30.000000 PPS2    9 N 1  0.000000e+00 "
                                         "0.000000e+00  1.000e-06\n");
    ASSERT_EQ(r.pulses.size(), 3U);
    constexpr std::int64_t t0 = 1259591607LL * 1'000'000'000;  // 2009-11-30 14:33:27 UTC
    EXPECT_EQ(r.pulses[0].timestamp_ns, t0 - 490);
    EXPECT_EQ(r.pulses[1].timestamp_ns, t0 + 1'000'000'000 + 1234);
    EXPECT_EQ(r.pulses[2].timestamp_ns, t0 + 3'000'000'000);
    EXPECT_EQ(r.pulses[0].sequence, 0U);
    EXPECT_EQ(r.pulses[1].sequence, 1U);
    EXPECT_EQ(r.pulses[2].sequence, 3U) << "a missing second is a sequence gap";
    EXPECT_EQ(r.filtered_lines, 1U);
    EXPECT_EQ(r.lines, 7U);

    RefclocksImportOptions cooked;
    cooked.offset = RefclockOffset::cooked;
    const auto c =
        import_refclocks_text(std::string(refclocks_header) +
                                  "2009-11-30 14:33:27.000000 PPS2    7 N 1  4.900000e-07 "
                                  "-6.741777e-07  1.000e-06\n",
                              cooked);
    ASSERT_EQ(c.pulses.size(), 1U);
    EXPECT_EQ(c.pulses[0].timestamp_ns, t0 + 674);
}

TEST(RefclocksLog, MalformedLinesAreReportedWithFileAndLineAndSkipped) {
    const std::string text = std::string(refclocks_header) +
                             "2009-11-30 14:33:27.000000 PPS 0 N 1 1.0e-07 1.0e-07 1.0e-06\n"
                             "2009-11-30 14:33:28.000000 PPS 0 N 1 1.0e-07\n"               // 5
                             "2009-13-30 14:33:29.000000 PPS 0 N 1 1.0e-07 1.0e-07 1e-6\n"  // 6
                             "2009-11-30 14:33:30.000000 PPS 0 N 1 abc 1.0e-07 1e-6\n"      // 7
                             "2009-11-30 14:33:31.000000 PPS 0 N 1 0.7 0.7 1e-6\n"          // 8
                             "2009-11-30 14:33:31.000000 PPS 0 N 1 1e-7 1e-7 1e-6\n"        // 9
                             "2009-11-30 14:33:30.000000 PPS 0 N 1 1e-7 1e-7 1e-6\n"        // 10
                             "2009-11-30 14:33:32.000000 PPS 0 N 2 1e-7 1e-7 1e-6\n"        // 11
                             "2009-11-30 14:33:33.000000 PPS 0 N 1 1e-7 1e-7 1e-6\n";
    const auto r = import_refclocks_text(text);
    EXPECT_EQ(r.pulses.size(), 3U);
    ASSERT_EQ(r.problem_count, 6U);
    ASSERT_EQ(r.problems.size(), 6U);
    EXPECT_EQ(r.problems[0].to_string(),
              "refclocks.log:5: has 7 fields, expected 9 (date, time, refid, DP, L, P, raw "
              "offset, cooked offset, dispersion)");
    EXPECT_EQ(r.problems[1].line, 6U);
    EXPECT_EQ(r.problems[2].to_string(),
              "refclocks.log:7: field 7 (raw offset) is 'abc', not a number");
    EXPECT_EQ(r.problems[3].line, 8U);
    EXPECT_EQ(r.problems[4].line, 11U);
    EXPECT_EQ(r.problems[5].line, 10U) << "found when ordering the chosen refid's pulses";
    EXPECT_NE(r.problems[5].message.find("not after the previous pulse"), std::string::npos);

    RefclocksImportOptions strict;
    strict.strict = true;
    try {
        import_refclocks_text(text, strict);
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "refclocks.log:5: has 7 fields, expected 9 (date, time, refid, DP, L, P, raw "
                  "offset, cooked offset, dispersion); fix or remove the line, or drop --strict");
    }
}

TEST(RefclocksLog, SeveralRefclocksNeedRefid) {
    const std::string text =
        "2009-11-30 14:33:27.000000 PPS 0 N 1 1.0e-07 1.0e-07 1.0e-06\n"
        "2009-11-30 14:33:27.100000 GPS 0 N 1 2.0e-07 2.0e-07 1.0e-06\n"
        "2009-11-30 14:33:27.200000 NMEA 0 N 0 1.2e-01 1.2e-01 1.0e-03\n"
        "2009-11-30 14:33:28.000000 PPS 0 N 1 1.0e-07 1.0e-07 1.0e-06\n";
    try {
        import_refclocks_text(text);
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "refclocks.log: samples from several PPS refclocks: GPS (1 samples), PPS (2 "
                  "samples); pick one with --refid");
    }
    RefclocksImportOptions pps;
    pps.refid = "PPS";
    const auto r = import_refclocks_text(text, pps);
    EXPECT_EQ(r.pulses.size(), 2U);
    EXPECT_EQ(r.other_refid_lines, 1U);
    EXPECT_EQ(r.non_pps_lines, 1U);
    pps.refid = "XYZ";
    try {
        import_refclocks_text(text, pps);
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "refclocks.log: no PPS samples for refid XYZ; refclocks in the log: GPS (1 "
                  "samples, PPS), NMEA (1 samples, not PPS: P = 0), PPS (2 samples, PPS)");
    }
    EXPECT_THROW(import_refclocks_text("garbage\n"), core::InputError) << "no PPS samples at all";
    EXPECT_THROW(import_refclocks_log("/nonexistent/refclocks.log", {}), core::InputError);
}

TEST(RefclocksLog, ALogOfPhcRefclocksOnlyIsRefusedNamingEachRefclock) {
    // A PHC-only refclocks.log as posted to a kernel mailing list: P = 0 throughout.
    const std::string text = std::string(refclocks_header) +
                             "2023-03-01 10:00:00.000000 PHCK    0 N 0  1.234000e-08  "
                             "1.234000e-08  2.000e-09\n"
                             "2023-03-01 10:00:00.000000 PHCK    - N -       -        "
                             "1.234000e-08  2.000e-09\n"
                             "2023-03-01 10:00:00.500000 PHCV    0 N 0 -4.100000e-09 "
                             "-4.100000e-09  2.000e-09\n"
                             "2023-03-01 10:00:01.000000 PHCK    0 N 0  1.100000e-08  "
                             "1.100000e-08  2.000e-09\n";
    try {
        import_refclocks_text(text);
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "refclocks.log: no PPS samples (lines with P = 1); refclocks in the log: PHCK "
                  "(2 samples, not PPS: P = 0), PHCV (1 samples, not PPS: P = 0); import "
                  "chrony-refclocks reads the log of a PPS refclock ('refclock PPS' with 'log "
                  "refclocks' in chrony.conf)");
    }
}

TEST(RefclocksLog, RotatedFilesAreReadInOrderAsOneLog) {
    RefclocksLogReader reader({});
    std::istringstream older(std::string(refclocks_header) +
                             "2009-11-30 14:33:27.000000 PPS 0 N 1 1.0e-07 1.0e-07 1.0e-06\n"
                             "2009-11-30 14:33:28.000000 PPS 0 N 1 2.0e-07 2.0e-07 1.0e-06\n");
    std::istringstream newer(std::string(refclocks_header) +
                             "2009-11-30 14:33:29.000000 PPS 0 N 1 3.0e-07 3.0e-07 1.0e-06\n"
                             "2009-11-30 14:33:28.000000 PPS 0 N 1 3.0e-07 3.0e-07 1.0e-06\n");
    reader.read(older, "refclocks.log.1");
    reader.read(newer, "refclocks.log");
    const auto r = reader.finish();
    ASSERT_EQ(r.pulses.size(), 3U);
    EXPECT_EQ(r.pulses[2].sequence, 2U);
    ASSERT_EQ(r.problem_count, 1U);
    EXPECT_EQ(r.problems[0].file, "refclocks.log") << "the problem names its own file";
    EXPECT_EQ(r.problems[0].line, 5U);
    EXPECT_EQ(r.metadata["import"]["file"].size(), 2U);
}

// `refclocks.log refclocks.log.1 refclocks.log.2` (newest first, as `ls` sorts them): the files
// do not overlap, so they are read oldest first and every pulse is kept, with a note.
TEST(RefclocksLog, RotatedFilesGivenNewestFirstAreReadOldestFirst) {
    RefclocksLogReader reader({});
    const std::string line = " PPS 0 N 1 1.0e-07 1.0e-07 1.0e-06\n";
    std::istringstream newest("2009-11-30 14:33:31.000000" + line + "2009-11-30 14:33:32.000000" +
                              line);
    std::istringstream middle("2009-11-30 14:33:29.000000" + line + "2009-11-30 14:33:30.000000" +
                              line);
    std::istringstream oldest("2009-11-30 14:33:27.000000" + line + "2009-11-30 14:33:28.000000" +
                              line);
    reader.read(newest, "refclocks.log");
    reader.read(middle, "refclocks.log.1");
    reader.read(oldest, "refclocks.log.2");
    const auto r = reader.finish();
    ASSERT_EQ(r.pulses.size(), 6U);
    EXPECT_EQ(r.problem_count, 0U);
    for (std::size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(r.pulses[i].sequence, i);
    }
    ASSERT_EQ(r.notes.size(), 1U);
    EXPECT_EQ(r.notes[0],
              "read oldest first: refclocks.log.2, refclocks.log.1, refclocks.log (the files were "
              "given out of time order)");
}

TEST(TrackingLog, ParsesChronyExampleAndSkipsMalformedLines) {
    const std::string text =
        "2017-08-22 13:22:36 203.0.113.15     2     -3.541      0.075 -8.621e-06 N "
        "2  2.940e-03 -2.084e-04  1.534e-02  3.472e-04  8.304e-03\n"
        "2017-08-22 13:22:37 203.0.113.15     2     -3.541      0.075 -8.621e-06 Q "
        "2  2.940e-03 -2.084e-04  1.534e-02  3.472e-04  8.304e-03\n"
        "2017-08-22 13:22:38 203.0.113.15 2\n";
    std::istringstream in(text);
    const auto r = import_tracking_log(in, "tracking.log", {});
    ASSERT_EQ(r.entries.size(), 1U);
    const auto& e = r.entries[0];
    EXPECT_EQ(e.time_ns, 1503408156LL * 1'000'000'000);
    EXPECT_EQ(e.reference, "203.0.113.15");
    EXPECT_EQ(e.stratum, 2);
    EXPECT_DOUBLE_EQ(e.frequency_ppm, -3.541);
    EXPECT_NEAR(e.offset_ns, -8621.0, 1e-6);
    EXPECT_EQ(e.combined_sources, 2);
    EXPECT_NEAR(e.max_error_ns, 8.304e6, 1e-3);
    ASSERT_TRUE(e.rms_offset_ns);
    EXPECT_NEAR(*e.rms_offset_ns, 8621.0, 1e-6);
    ASSERT_EQ(r.problem_count, 2U);
    EXPECT_EQ(r.problems[0].to_string(), "tracking.log:2: field 8 (leap) is 'Q', not N, +, - or ?");
    EXPECT_EQ(r.problems[1].line, 3U);

    std::istringstream again(text);
    EXPECT_THROW(import_tracking_log(again, "tracking.log", {.strict = true, .logbanner = {}}),
                 core::InputError);
}

TEST(RmsOffsetTracker, FollowsChronysRecurrence) {
    RmsOffsetTracker t;
    t.add(4.0);
    EXPECT_DOUBLE_EQ(t.rms(), 4.0);
    t.add(2.0);  // smaller: still "quickly on start", replaced
    EXPECT_DOUBLE_EQ(t.rms(), 2.0);
    t.add(3.0);  // larger than the running value: replaced, and averaging starts
    EXPECT_DOUBLE_EQ(t.rms(), 3.0);
    t.add(1.0);  // 9 + 0.1 * (1 - 9) = 8.2
    EXPECT_DOUBLE_EQ(t.rms(), std::sqrt(8.2));
}

}  // namespace
}  // namespace ppsbench::chrony
