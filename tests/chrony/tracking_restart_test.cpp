// SPDX-License-Identifier: GPL-2.0-or-later
// chronyd starts its RMS offset average afresh in every process; the tracking.log importer must
// find each restart and do the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "chronyd_fixture.hpp"
#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::chrony {
namespace {

using namespace std::chrono_literals;

constexpr const char* rule =
    "====================================================================================="
    "==============================================\n";
constexpr const char* header =
    "   Date (UTC) Time     IP Address   St   Freq ppm   Skew ppm     Offset L Co  Offset sd "
    "Rem. corr. Root delay Root disp. Max. error\n";

std::string banner() {
    return std::string(rule) + header + rule;
}

// One tracking.log line in chrony 4.3's layout.
std::string line(const std::string& time, const std::string& reference, int stratum,
                 const std::string& offset, char leap) {
    std::ostringstream s;
    s << "2024-05-0" << time << " " << reference << "  " << stratum << "  -1.222  0.500 " << offset
      << " " << leap << "  " << (leap == '?' ? 0 : 1)
      << "  1.151e-06 -0.000e+00  1.000e-09  6.890e-04  1.500e+00\n";
    return s.str();
}

std::string startup(const std::string& time) {
    return "2024-05-0" + time +
           " 0.0.0.0          0      0.000 1000000.000  0.000e+00 ?  0  0.000e+00 -0.000e+00  "
           "1.000e+00  1.000e+00  1.500e+00\n";
}

TrackingImport import_tracking_text(const std::string& text, TrackingImportOptions options = {}) {
    std::istringstream in(text);
    return import_tracking_log(in, "tracking.log", options);
}

// The shapes seen in users' logs (written here, as chronyd writes them): two reboots, each
// starting with chronyd's unsynchronised start-up line and then a -11.7 s step; banners off
// (logbanner 0) so only the start-up line shows the restart.
TEST(TrackingRestart, StartUpLinesWithoutBannersStartTheAverageAfresh) {
    const std::string text =
        startup("1 10:00:00") + line("1 10:00:05", "PPS", 1, "-1.170e+01", 'N') +
        line("1 10:00:21", "PPS", 1, "3.000e-04", 'N') +
        line("1 10:00:37", "PPS", 1, "2.000e-06", 'N') + startup("2 08:00:00") +  // reboot
        line("2 08:00:05", "PPS", 1, "-1.170e+01", 'N') +
        line("2 08:00:21", "PPS", 1, "1.000e-06", 'N') + startup("3 08:00:00") +  // and another
        line("3 08:00:05", "PPS", 1, "1.000e-06", 'N') +
        line("3 08:00:21", "PPS", 1, "2.000e-06", 'N') +
        line("3 08:00:37", "PPS", 1, "1.000e-06", 'N');
    const auto r = import_tracking_text(text);
    EXPECT_EQ(r.problem_count, 0U);
    ASSERT_EQ(r.restarts.size(), 2U);
    EXPECT_EQ(r.restarts[0].line, 5U);
    EXPECT_EQ(r.restarts[0].evidence, "start-up line");
    EXPECT_EQ(r.restarts[1].line, 8U);
    ASSERT_EQ(r.entries.size(), 11U);
    EXPECT_EQ(r.entries[3].process, 1U);
    EXPECT_EQ(r.entries[4].process, 2U);
    EXPECT_EQ(r.entries.back().process, 3U);
    EXPECT_FALSE(r.entries[7].rms_offset_ns) << "nothing synchronised yet in process 3";
    // Process 3 alone, by hand: 1e-6 (taken as is), 2e-6 is larger (taken, averaging starts),
    // then m = 4e-12 + 0.1 (1e-12 - 4e-12) = 3.7e-12.
    ASSERT_TRUE(r.entries.back().rms_offset_ns);
    EXPECT_NEAR(*r.entries.back().rms_offset_ns, std::sqrt(3.7e-12) * 1e9, 1e-9);
    // Process 2 ends on its own 1 µs, not on the 11.7 s step of process 1.
    EXPECT_NEAR(*r.entries[6].rms_offset_ns, 1000.0, 1e-9);
}

// An unsynchronised line inside one process (chrony 4.3 writes one on an unknown clock step,
// on "no majority" and on the fallback-drift timeout): the same shape as the start-up line but
// with the root delay of the last reference (here a refclock's 1 ns), so no restart, and the
// average goes on as chronyd's does.
std::string unsynchronised_in_process(const std::string& time) {
    return "2024-05-0" + time +
           " 0.0.0.0          0     -0.005      0.114  0.000e+00 ?  0  0.000e+00 -9.787e-07  "
           "1.000e-09  2.076e-05  2.158e-05\n";
}

TEST(TrackingRestart, AnUnsynchronisedLineWithTheReferencesRootDelayIsTheSameProcess) {
    const std::string text =
        startup("1 10:00:00") + line("1 10:00:05", "PPS", 1, "4.000e-06", 'N') +
        line("1 10:00:07", "PPS", 1, "5.000e-06", 'N') + unsynchronised_in_process("1 10:01:00") +
        line("1 10:01:09", "PPS", 1, "1.000e-06", 'N');
    const auto r = import_tracking_text(text);
    EXPECT_EQ(r.restarts.size(), 0U);
    EXPECT_EQ(r.entries.back().process, 1U);
    // 4e-6 taken, 5e-6 larger (taken, averaging starts), then 25e-12 + 0.1 (1e-12 - 25e-12).
    ASSERT_TRUE(r.entries.back().rms_offset_ns);
    EXPECT_NEAR(*r.entries.back().rms_offset_ns, std::sqrt(22.6e-12) * 1e9, 1e-9);
    // The same line with the initial root delay is a new process, and the average restarts.
    const auto restarted = import_tracking_text(
        startup("1 10:00:00") + line("1 10:00:05", "PPS", 1, "4.000e-06", 'N') +
        line("1 10:00:07", "PPS", 1, "5.000e-06", 'N') + startup("1 10:01:00") +
        line("1 10:01:09", "PPS", 1, "1.000e-06", 'N'));
    ASSERT_EQ(restarted.restarts.size(), 1U);
    EXPECT_NEAR(*restarted.entries.back().rms_offset_ns, 1000.0, 1e-9);
}

// A process that never synchronised keeps the initial root delay, so its later unsynchronised
// lines look like start-up lines. With banners on, a new process writes one before its first
// entry: a start-up line with no banner before it is the same process.
TEST(TrackingRestart, AStartUpLineWithoutItsBannerInAFileWithBannersIsTheSameProcess) {
    const std::string text = banner() + startup("1 10:00:00") + startup("1 10:00:16") +
                             line("1 10:00:21", "PPS", 1, "1.000e-06", 'N') + banner() +
                             startup("1 11:00:00") + line("1 11:00:05", "PPS", 1, "1.000e-06", 'N');
    const auto r = import_tracking_text(text);
    ASSERT_EQ(r.restarts.size(), 1U);
    EXPECT_EQ(r.restarts[0].line, 10U);
    EXPECT_EQ(r.entries[1].process, 1U);
    EXPECT_EQ(r.entries.back().process, 2U);
}

// A real chronyd 4.3 (tests/import/fixtures/README.md): started, synchronised for 40 s,
// restarted on the same log directory, synchronised for 50 s, then 24 s without pulses past
// its `fallbackdrift 4 5` timeout (an unsynchronised line at 01:28:17, same process), then 30 s
// of pulses again. chronyc -c tracking said, at the end of process 1, after the timeout and at
// the end: RMS offset 687, 683 and 380 ns.
TEST(TrackingRestart, RealChronydRestartAndFallbackDriftTimeout) {
    const auto r = import_tracking_log(std::string(PPSBENCH_SOURCE_DIR) +
                                           "/tests/import/fixtures/"
                                           "chrony-tracking-restart-fallbackdrift.log",
                                       {});
    EXPECT_EQ(r.problem_count, 0U);
    ASSERT_EQ(r.restarts.size(), 1U) << "two chronyd processes, not three";
    EXPECT_EQ(r.restarts[0].line, 26U);
    EXPECT_EQ(r.restarts[0].evidence,
              "start-up line and banner after 19 entries, out of its 32-entry cycle");
    // Entries by the file's line: banners at lines 1-3, 23-25 and 58-60.
    const auto at = [&](std::size_t file_line) -> const TrackingLogEntry& {
        return r.entries.at(file_line - (file_line < 23 ? 4 : file_line < 58 ? 7 : 10));
    };
    EXPECT_EQ(at(26).process, 2U);
    EXPECT_EQ(at(26).frequency_ppm, -0.004) << "read back from the driftfile";
    EXPECT_EQ(at(51).leap, LeapStatus::not_synchronised);
    EXPECT_EQ(at(51).process, 2U);
    EXPECT_EQ(r.entries.back().process, 2U);
    const auto near = [](const TrackingLogEntry& e, double chronyc_ns) {
        ASSERT_TRUE(e.rms_offset_ns);
        EXPECT_NEAR(*e.rms_offset_ns, chronyc_ns, 5e-3 * chronyc_ns + 1.0);
    };
    near(at(22), 687.0);            // process 1's last update (01:27:09)
    near(at(51), 683.0);            // the timeout's line keeps 01:28:01's average
    near(r.entries.back(), 380.0);  // and the average went on through it
}

TEST(TrackingRestart, ABannerOutOfItsCycleIsARestartEvenWithoutAStartUpLine) {
    // logbanner 2: banners after every 2 entries; a restart writes its banner early.
    std::string text = banner() + line("1 10:00:00", "PPS", 1, "1.000e-06", 'N') +
                       line("1 10:00:01", "PPS", 1, "2.000e-06", 'N') + banner() +
                       line("1 10:00:02", "PPS", 1, "3.000e-06", 'N') +
                       line("1 10:00:03", "PPS", 1, "4.000e-06", 'N') + banner() +
                       line("1 10:00:04", "PPS", 1, "5.000e-06", 'N') +
                       // restart: the new process's banner after 1 entry
                       banner() + line("1 10:01:00", "PPS", 1, "1.000e-06", 'N') +
                       line("1 10:01:01", "PPS", 1, "1.000e-06", 'N') + banner() +
                       line("1 10:01:02", "PPS", 1, "1.000e-06", 'N');
    const auto r = import_tracking_text(text);
    EXPECT_EQ(r.banner_period, 2U);
    ASSERT_EQ(r.restarts.size(), 1U);
    EXPECT_EQ(r.restarts[0].evidence, "banner after 1 entries, out of its 2-entry cycle");
    EXPECT_EQ(r.entries[5].process, 2U);
    EXPECT_NEAR(*r.entries.back().rms_offset_ns, 1000.0, 1e-9);
}

TEST(TrackingRestart, RepeatedMissingAndIndentedBannersAreNoRestart) {
    std::string text = banner() + banner() +  // repeated
                       line("1 10:00:00", "PPS", 1, "1.000e-06", 'N') + "\t" +
                       line("1 10:00:01", "PPS", 1, "1.000e-17", 'N') +  // TAB-indented
                       banner() + line("1 10:00:02", "PPS", 1, "1.000e-06", 'N') +
                       line("1 10:00:03", "PPS", 1, "1.000e-06", 'N') +
                       // a banner missing here (cut out): the next comes 4 entries later
                       line("1 10:00:04", "PPS", 1, "1.000e-06", 'N') +
                       line("1 10:00:05", "PPS", 1, "1.000e-06", 'N') + "\n" + banner() +
                       line("1 10:00:06", "PPS", 1, "1.000e-06", 'N') +
                       "Dec  1 00:00:00 host kernel: a syslog line pasted in\n" +
                       line("1 10:00:07", "PPS", 1, "1.000e-06", 'N') + banner() +
                       line("1 10:00:08", "PPS", 1, "1.000e-06", 'N');
    const auto r = import_tracking_text(text);
    EXPECT_EQ(r.restarts.size(), 0U);
    EXPECT_EQ(r.repeated_banners, 1U);
    EXPECT_EQ(r.banner_period, 2U);
    EXPECT_EQ(r.entries.size(), 9U);
    EXPECT_DOUBLE_EQ(r.entries[1].offset_ns, 1e-8) << "1e-17 s is kept";
    EXPECT_EQ(r.problem_count, 1U) << "the foreign line is counted";
    EXPECT_THROW(import_tracking_text(text, {.strict = true, .logbanner = {}}), core::InputError);
}

TEST(TrackingRestart, EachRotatedFileRestartsTheBannerCount) {
    // chronyc cyclelogs reopens the log: the new file starts with a banner, mid-cycle.
    TrackingLogReader reader({.strict = false, .logbanner = 2});
    std::istringstream older(banner() + line("1 10:00:00", "PPS", 1, "1.000e-06", 'N') +
                             line("1 10:00:01", "PPS", 1, "1.000e-06", 'N') + banner() +
                             line("1 10:00:02", "PPS", 1, "4.000e-06", 'N'));
    std::istringstream newer(banner() + line("1 10:00:03", "PPS", 1, "1.000e-06", 'N') +
                             line("1 10:00:04", "PPS", 1, "1.000e-06", 'N') + banner());
    reader.read(older, "tracking.log.1");
    reader.read(newer, "tracking.log");
    const auto r = reader.finish();
    EXPECT_EQ(r.restarts.size(), 0U);
    EXPECT_EQ(r.entries.back().process, 1U);
}

// A real chronyd, stopped and started again on the same log directory while the PPS feed goes
// on: the importer's RMS offset after the restart must be the new chronyd's.
class RealChronydRestart : public ::testing::TestWithParam<std::optional<int>> {};

TEST_P(RealChronydRestart, ImportMatchesChronycAfterTheRestart) {
    if (!testing::chronyd_installed()) {
        GTEST_SKIP() << testing::chronyd_path() << " is not installed (apt install chrony)";
    }
    testing::ChronydConfig config;
    config.logbanner = GetParam();
    testing::ChronydFixture chronyd(config);
    ASSERT_TRUE(chronyd.wait_synchronised(15s)) << chronyd.chronyd_output();
    chronyd.wait_pulses(10, 20s);
    chronyd.restart_chronyd();
    const auto before = chronyd.sent_pulses().size();
    ASSERT_TRUE(chronyd.wait_synchronised(15s)) << chronyd.chronyd_output();
    chronyd.wait_pulses(before + 6, 20s);
    chronyd.pause_feed();
    std::this_thread::sleep_for(1500ms);
    const auto tracking = parse_tracking(run_chronyc(chronyd.chronyc(), "tracking").out);

    const auto log = import_tracking_log(chronyd.tracking_log(), {});
    EXPECT_EQ(log.problem_count, 0U);
    ASSERT_EQ(log.restarts.size(), 1U);
    EXPECT_NE(log.restarts[0].evidence.find("start-up line"), std::string::npos)
        << log.restarts[0].evidence;
    if (!GetParam()) {  // banners on (chrony's default, 32): the early banner shows it too
        EXPECT_NE(log.restarts[0].evidence.find("out of its 32-entry cycle"), std::string::npos)
            << log.restarts[0].evidence;
    }
    const auto& last = log.entries.back();
    EXPECT_EQ(last.process, 2U);
    ASSERT_TRUE(last.rms_offset_ns);
    const double expected = static_cast<double>(tracking.rms_offset_ns);
    RecordProperty("chronyc_rms_offset_ns", std::to_string(expected));
    RecordProperty("imported_rms_offset_ns", std::to_string(*last.rms_offset_ns));
    RecordProperty("restart_evidence", log.restarts[0].evidence);
    EXPECT_NEAR(*last.rms_offset_ns, expected, 1e-3 * expected + 1.0)
        << "entries: " << log.entries.size() << ", chronyc RMS offset " << expected << " ns";
}

// A real chronyd that loses its only source for longer than its fallback-drift timeout writes
// an unsynchronised line within the same process (reference.c: fb_drift_timeout() calls
// REF_SetUnsynchronised()): no restart, and its RMS offset goes on, as chronyc shows.
TEST(RealChronydFallbackDrift, TheTimeoutsUnsynchronisedLineIsNoRestart) {
    if (!testing::chronyd_installed()) {
        GTEST_SKIP() << testing::chronyd_path() << " is not installed (apt install chrony)";
    }
    testing::ChronydConfig config;
    config.poll = 1;                  // updates 2 s apart: a fallback drift needs them >= 1 s
    config.fallbackdrift = {{3, 4}};  // 8 s after the last update, over 16 s of updates
    testing::ChronydFixture chronyd(config);
    ASSERT_TRUE(chronyd.wait_synchronised(15s)) << chronyd.chronyd_output();
    chronyd.wait_pulses(chronyd.sent_pulses().size() + 24, 40s);
    chronyd.pause_feed();
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (parse_tracking(run_chronyc(chronyd.chronyc(), "tracking").out).synchronised() &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(500ms);
    }
    chronyd.resume_feed();
    ASSERT_TRUE(chronyd.wait_synchronised(20s)) << chronyd.chronyd_output();
    chronyd.wait_pulses(chronyd.sent_pulses().size() + 8, 20s);
    chronyd.pause_feed();
    std::this_thread::sleep_for(2500ms);
    const auto tracking = parse_tracking(run_chronyc(chronyd.chronyc(), "tracking").out);

    const auto log = import_tracking_log(chronyd.tracking_log(), {});
    EXPECT_EQ(log.problem_count, 0U);
    EXPECT_EQ(log.restarts.size(), 0U);
    const auto synchronised = std::find_if(log.entries.begin(), log.entries.end(), [](auto& e) {
        return e.leap != LeapStatus::not_synchronised;
    });
    const auto timeout_line = std::find_if(synchronised, log.entries.end(), [](auto& e) {
        return e.leap == LeapStatus::not_synchronised;
    });
    ASSERT_NE(timeout_line, log.entries.end()) << "chronyd wrote no fallback-drift line";
    EXPECT_LT(timeout_line->root_delay_ns, 1e9) << "the refclock's root delay, not 1 s";
    const auto& last = log.entries.back();
    ASSERT_TRUE(last.rms_offset_ns);
    const double expected = static_cast<double>(tracking.rms_offset_ns);
    RecordProperty("chronyc_rms_offset_ns", std::to_string(expected));
    RecordProperty("imported_rms_offset_ns", std::to_string(*last.rms_offset_ns));
    EXPECT_NEAR(*last.rms_offset_ns, expected, 1e-3 * expected + 1.0);
}

INSTANTIATE_TEST_SUITE_P(Banners, RealChronydRestart,
                         ::testing::Values(std::nullopt, std::optional<int>(0),
                                           std::optional<int>(4)),
                         [](const auto& info) {
                             return info.param ? "logbanner" + std::to_string(*info.param)
                                               : std::string("default_banners");
                         });

}  // namespace
}  // namespace ppsbench::chrony
