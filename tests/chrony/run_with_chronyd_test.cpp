// SPDX-License-Identifier: GPL-2.0-or-later
// `ppsbench run` sampling a real chronyd (started by the harness, never touching the host clock),
// end to end through the built binary, the capture file and `report --format json`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>

#include "chronyd_fixture.hpp"
#include "cli.hpp"
#include "ppsbench/chrony/json.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::chrony {
namespace {

using testing::ChronydFixture;

TEST(RunWithChronyd, RecordsChronySamplesAndReportsTheRmsOffset) {
    if (::access("/usr/sbin/chronyd", X_OK) != 0) {
        GTEST_SKIP() << "chronyd is not installed (Debian package chrony)";
    }
    ChronydFixture chronyd;
    ASSERT_TRUE(chronyd.wait_synchronised(std::chrono::seconds(30))) << chronyd.chronyd_output();
    ppsbench::testing::TempDir dir;
    const auto path = dir.file("with-chrony.csv");
    const auto run = ppsbench::testing::run_ppsbench(
        {"run", "-s", "sim:hardirq", "--pace", "realtime", "--period", "100ms", "--duration",
         "2500ms", "--chrony", "on", "--chrony-socket", chronyd.socket_path(), "--chrony-interval",
         "1s", "--chrony-refid", "PPS", "-o", path});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(ppsbench::testing::without_drift_notes(run.err), "")
        << "no chrony notice when chronyd is fine: " << run.err;
    // A table wider than 100 columns puts "RMS offset (chrony)" on two header lines.
    EXPECT_NE(run.out.find("RMS offset"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("(chrony)"), std::string::npos) << run.out;

    const auto file = store::read_capture_file(path);
    std::vector<ChronySample> samples;
    for (const auto& note : file.notes) {
        if (note.tag == "chrony") {
            samples.push_back(note.body.get<ChronySample>());
        }
    }
    // Start, about one a second, end.
    ASSERT_GE(samples.size(), 3U);
    EXPECT_EQ(samples.back().status, ChronyStatus::ok) << samples.back().detail;
    ASSERT_TRUE(samples.back().tracking);
    EXPECT_EQ(samples.back().tracking->ref_id_text(), "PPS");
    ASSERT_TRUE(samples.back().pps_stats);

    const auto report = ppsbench::testing::run_ppsbench({"report", "--format", "json", path});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    const auto json = nlohmann::json::parse(report.out);
    const auto& c = json["runs"][0]["chrony"];
    EXPECT_EQ(c["status"], "ok");
    EXPECT_EQ(c["rms_offset_ns"]["end"], samples.back().tracking->rms_offset_ns);
    EXPECT_EQ(c["reference"]["ref_id"], samples.back().tracking->ref_id_hex());
}

// A two-path run samples chronyd once for both paths. Neither simulated path is a refclock in
// chrony.conf, so which path chrony follows is unknown and both files get the same samples.
TEST(RunWithChronyd, ATwoPathRunNotesChronysSamplesInBothFilesWhenItsRefclockPathIsUnknown) {
    if (::access("/usr/sbin/chronyd", X_OK) != 0) {
        GTEST_SKIP() << "chronyd is not installed (Debian package chrony)";
    }
    ChronydFixture chronyd;
    ASSERT_TRUE(chronyd.wait_synchronised(std::chrono::seconds(30))) << chronyd.chronyd_output();
    ppsbench::testing::TempDir dir;
    const auto run = ppsbench::testing::run_ppsbench({"run",
                                                      "-s",
                                                      "sim:hardirq",
                                                      "-s",
                                                      "sim:threaded",
                                                      "--pace",
                                                      "realtime",
                                                      "--period",
                                                      "100ms",
                                                      "--duration",
                                                      "2500ms",
                                                      "--chrony",
                                                      "on",
                                                      "--chrony-socket",
                                                      chronyd.socket_path(),
                                                      "--chrony-interval",
                                                      "1s",
                                                      "--chrony-refid",
                                                      "PPS",
                                                      "--quiet",
                                                      "-o",
                                                      dir.file("pair.csv")});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(ppsbench::testing::without_drift_notes(run.err), "")
        << "no chrony notice when chronyd is fine: " << run.err;
    std::array<std::vector<ChronySample>, 2> samples;
    for (std::size_t path = 0; path < 2; ++path) {
        const auto file =
            store::read_capture_file(dir.file(path == 0 ? "pair-1.csv" : "pair-2.csv"));
        for (const auto& note : file.notes) {
            if (note.tag == "chrony") {
                samples[path].push_back(note.body.get<ChronySample>());
            }
        }
    }
    // Start, about one a second, end: one sampler, the same samples in both files.
    ASSERT_GE(samples[0].size(), 3U);
    EXPECT_EQ(samples[0], samples[1]);
    EXPECT_EQ(samples[0].back().status, ChronyStatus::ok) << samples[0].back().detail;
    ASSERT_TRUE(samples[0].back().tracking);
    EXPECT_EQ(samples[0].back().tracking->ref_id_text(), "PPS");
}

TEST(RunWithChronyd, SaysOnceThatChronydIsNotRunningAndCapturesAnyway) {
    ppsbench::testing::TempDir dir;
    const auto run = ppsbench::testing::run_ppsbench(
        {"run", "-s", "sim:hardirq", "--count", "30", "--chrony", "on", "--chrony-socket",
         dir.file("nobody-listens.sock"), "-o", dir.file("no-chrony.csv")});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("30 pulses (count)"), std::string::npos);
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_NE(run.err.find("chronyd is not running"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace ppsbench::chrony
