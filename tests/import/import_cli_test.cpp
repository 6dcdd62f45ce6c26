// SPDX-License-Identifier: GPL-2.0-or-later
// `ppsbench import` and `report -` end to end: the built binary, real files, pipes.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "fixture.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench {
namespace {

using import::testing::fixture;
using import::testing::fixture_path;
using ppsbench::testing::contains;
using ppsbench::testing::run_ppsbench;
using ppsbench::testing::run_program;
using ppsbench::testing::TempDir;

void gzip_to(const std::string& path, const std::string& text) {
    gzFile f = gzopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
    gzclose(f);
}

TEST(ImportCli, PpstestOutputBecomesACaptureThatReportReads) {
    TempDir dir;
    const auto out = dir.file("ppstest.csv");
    const auto r =
        run_ppsbench({"import", "ppstest", fixture_path("ppstest-assert-only.txt"), "-o", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "7 pulses written to")) << r.out;
    EXPECT_TRUE(contains(r.out,
                         "1 repeated lines removed, 1 missed pulses, 1 sequence skips "
                         "without a time gap (unseen events)"))
        << r.out;
    EXPECT_TRUE(contains(r.err, "1 fetch errors")) << r.err;
    const auto file = store::read_capture_file(out);
    EXPECT_EQ(file.pulses.size(), 7U);
    ASSERT_NE(file.end_record(), nullptr);
    EXPECT_EQ(file.end_record()->at("unseen_events"), 1);
    const auto report = run_ppsbench({"report", out, "--format", "json"});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    // report counts by the same rule as the import (stats::classify_interval).
    const auto run = nlohmann::json::parse(report.out).at("runs").at(0);
    EXPECT_EQ(run.at("missed_pulses"), 1);
    EXPECT_EQ(run.at("unseen_events"), 1);
    EXPECT_TRUE(run.at("clock_steps").empty());
}

// -o is checked before any input is read, with the real problem named; a capture is a file.
TEST(ImportCli, OutputPathIsCheckedFirst) {
    TempDir dir;
    const auto input = fixture_path("ppstest-assert-only.txt");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"/proc/x.csv", "virtual file system"},
        {dir.path().string(), "directory"},
        {"-", "a capture file is a file"},
    };
    for (const auto& [output, expected] : cases) {
        const auto r = run_ppsbench({"import", "ppstest", input, "-o", output});
        EXPECT_EQ(r.exit_code, 2) << output;
        EXPECT_TRUE(contains(r.err, expected)) << output << ": " << r.err;
    }
    const auto existing = dir.file("kept.csv");
    ppsbench::testing::write_text(existing, "kept\n");
    const auto r = run_ppsbench({"import", "ppstest", input, "-o", existing});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(r.err, "--force")) << r.err;
    EXPECT_EQ(run_ppsbench({"import", "ppstest", input, "-o", existing, "--force"}).exit_code, 0);
}

TEST(ImportCli, NtpPeerstatsBecomesACapture) {
    TempDir dir;
    const auto r = run_ppsbench(
        {"import", "ntp-peerstats", fixture_path("ntp-peerstats"), "-o", dir.file("ntp.csv")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "every 16 s")) << r.err;
    EXPECT_EQ(store::read_capture_file(dir.file("ntp.csv")).pulses.size(), 5U);
}

TEST(ImportCli, EachImporterRefusesAnotherFormatNamingIt) {
    TempDir dir;
    const auto stats =
        run_ppsbench({"import", "chrony-tracking", fixture_path("chrony-statistics.log")});
    EXPECT_EQ(stats.exit_code, 2);
    EXPECT_TRUE(contains(stats.err,
                         "this is chrony's statistics.log; import chrony-tracking reads "
                         "chrony's tracking.log"))
        << stats.err;
    EXPECT_EQ(stats.out, "") << "no header-only CSV";
    const auto ppstest = run_ppsbench(
        {"import", "chrony-refclocks", fixture_path("ppstest-unlocked.txt"), "-o", dir.file("x")});
    EXPECT_EQ(ppstest.exit_code, 2);
    EXPECT_TRUE(contains(ppstest.err, "use 'ppsbench import ppstest'")) << ppstest.err;
    const auto peer =
        run_ppsbench({"import", "ppstest", fixture_path("ntp-peerstats"), "-o", dir.file("y")});
    EXPECT_EQ(peer.exit_code, 2);
    EXPECT_TRUE(contains(peer.err, "this is ntpd/NTPsec peerstats")) << peer.err;
    ppsbench::testing::write_text(dir.file("junk.log"), "nothing to see\nhere\n");
    const auto junk = run_ppsbench({"import", "chrony-tracking", dir.file("junk.log")});
    EXPECT_EQ(junk.exit_code, 2);
    EXPECT_TRUE(contains(junk.err, "no tracking.log lines")) << junk.err;
}

TEST(ImportCli, TrackingCsvKeepsEveryDigitTheLogHas) {
    TempDir dir;
    ppsbench::testing::write_text(
        dir.file("tracking.log"),
        "2017-08-22 13:22:36 PPS     1     -3.541      0.075  2.234e-11 N  1  5.145e-09 "
        "-2.084e-04  1.000e-09  4.878e-10  1.000e-17\n");
    const auto r = run_ppsbench({"import", "chrony-tracking", dir.file("tracking.log")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out,
                         "1503408156000000000,PPS,1,Normal,0.02234,0.02234,-3.541,0.075,"
                         "5.145,1,0.4878,1e-08,1\n"))
        << r.out;
}

TEST(ImportCli, RotatedGzipLogsAndStdinAreReadInOrder) {
    TempDir dir;
    const std::string a =
        "2009-11-30 14:33:27.000000 PPS 0 N 1 1.0e-07 1.0e-07 1.0e-06\n"
        "2009-11-30 14:33:28.000000 PPS 0 N 1 2.0e-07 2.0e-07 1.0e-06\n";
    const std::string b = "2009-11-30 14:33:29.000000 PPS 0 N 1 3.0e-07 3.0e-07 1.0e-06\n";
    gzip_to(dir.file("refclocks.log.1.gz"), a);
    ppsbench::testing::write_text(dir.file("refclocks.log"), b);
    const auto r = run_ppsbench({"import", "chrony-refclocks", dir.file("refclocks.log.1.gz"),
                                 dir.file("refclocks.log"), "-o", dir.file("run.csv")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(store::read_capture_file(dir.file("run.csv")).pulses.size(), 3U);

    // stdin, through a shell pipe: `zcat x.gz | ppsbench import ... -`
    const auto piped = run_program({"/bin/sh", "-c",
                                    "cat '" + fixture_path("ppstest-assert-clear.txt") + "' | '" +
                                        PPSBENCH_BINARY + "' import ppstest - -o '" +
                                        dir.file("stdin.csv") + "'"});
    ASSERT_EQ(piped.exit_code, 0) << piped.err;
    EXPECT_EQ(store::read_capture_file(dir.file("stdin.csv")).pulses.size(), 13U);
}

// `cat refclocks.log.1.gz refclocks.log > all.gz` looks like one log, but gzip -d stops at the
// end of the compressed data and ignores the rest ("trailing garbage"). The import says so
// with the file and how much, instead of dropping the appended lines without a word.
TEST(ImportCli, DataAfterAGzipMemberIsAWarningAndStrictRefusesIt) {
    TempDir dir;
    const std::string a =
        "2009-11-30 14:33:27.000000 PPS 0 N 1 1.0e-07 1.0e-07 1.0e-06\n"
        "2009-11-30 14:33:28.000000 PPS 0 N 1 2.0e-07 2.0e-07 1.0e-06\n";
    const std::string b = "2009-11-30 14:33:29.000000 PPS 0 N 1 3.0e-07 3.0e-07 1.0e-06\n";
    gzip_to(dir.file("a.gz"), a);
    ppsbench::testing::write_text(dir.file("all.gz"),
                                  ppsbench::testing::read_text(dir.file("a.gz")) + b);
    const auto r =
        run_ppsbench({"import", "chrony-refclocks", dir.file("all.gz"), "-o", dir.file("run.csv")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(
        r.err, "all.gz:3: " + std::to_string(b.size()) + " bytes after the end of the gzip data"))
        << r.err;
    EXPECT_TRUE(contains(r.out, "(1 lines skipped)")) << r.out;
    EXPECT_EQ(store::read_capture_file(dir.file("run.csv")).pulses.size(), 2U);

    const auto strict = run_ppsbench({"import", "chrony-refclocks", dir.file("all.gz"), "--strict",
                                      "-o", dir.file("strict.csv")});
    EXPECT_EQ(strict.exit_code, 2) << strict.err;
    EXPECT_TRUE(contains(strict.err, "all.gz:3: ")) << strict.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("strict.csv")));
}

TEST(ImportCli, ReportCompareAndGateReadStandardInput) {
    TempDir dir;
    ASSERT_EQ(run_ppsbench({"import", "ppstest", fixture_path("ppstest-assert-clear.txt"), "-o",
                            dir.file("run.csv")})
                  .exit_code,
              0);
    const std::string bin = PPSBENCH_BINARY;
    const std::string run = dir.file("run.csv");
    const auto direct = run_ppsbench({"report", run, "--format", "csv"});
    ASSERT_EQ(direct.exit_code, 0) << direct.err;
    for (const std::string& command :
         {"cat '" + run + "' | '" + bin + "' report - --format csv",
          "cat '" + run + "' | '" + bin + "' report /dev/stdin --format csv"}) {
        const auto r = run_program({"/bin/sh", "-c", command});
        ASSERT_EQ(r.exit_code, 0) << command << ": " << r.err;
        // Same figures; only the file column differs.
        EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'),
                  std::count(direct.out.begin(), direct.out.end(), '\n'));
    }
    // The fixture holds both edges, so two runs: a baseline and a gate judge one (--edge).
    const auto compare = run_program(
        {"/bin/sh", "-c",
         "cat '" + run + "' | '" + bin + "' compare --edge assert --baseline '" + run + "' -"});
    EXPECT_EQ(compare.exit_code, 0) << compare.err;
    const auto summary = run_ppsbench({"report", run, "--edge", "assert", "--format", "json"});
    ppsbench::testing::write_text(dir.file("base.json"), summary.out);
    // The fixture has 6 pulses: below the gate's default --min-pulses (100), which the gate
    // would rightly refuse; this test is about reading stdin, so it states its own minimum.
    const auto gate =
        run_program({"/bin/sh", "-c",
                     "cat '" + run + "' | '" + bin +
                         "' gate - --edge assert --max-missed 1000 --min-pulses 5 --baseline '" +
                         dir.file("base.json") + "'"});
    EXPECT_NE(gate.exit_code, 2) << gate.err;
    EXPECT_FALSE(contains(gate.err, "cannot")) << gate.err;
}

TEST(ImportCli, RotatedTrackingLogsGivenSeparatelyAreOneChronydProcess) {
    // A real chronyd's log, rotated by `chronyc cyclelogs`: the new file starts with a banner
    // after 7 entries of a 3-entry cycle, which is no restart at the top of a file.
    const auto r =
        run_ppsbench({"import", "chrony-tracking", fixture_path("chrony-tracking-cyclelogs.log.1"),
                      fixture_path("chrony-tracking-cyclelogs.log")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(contains(r.err, "restarted")) << r.err;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 13) << "header and 12 entries";
    EXPECT_TRUE(r.out.ends_with(",1\n")) << "all of process 1";

    // Concatenated first, the same banner is mid-file and out of cycle: taken for a restart,
    // as docs/chrony.md warns.
    const auto joined = run_program({"/bin/sh", "-c",
                                     "cat '" + fixture_path("chrony-tracking-cyclelogs.log.1") +
                                         "' '" + fixture_path("chrony-tracking-cyclelogs.log") +
                                         "' | '" + PPSBENCH_BINARY + "' import chrony-tracking -"});
    ASSERT_EQ(joined.exit_code, 0) << joined.err;
    EXPECT_TRUE(contains(joined.err,
                         "(stdin):20: chronyd restarted (banner after 1 entries, out "
                         "of its 3-entry cycle)"))
        << joined.err;
}

}  // namespace
}  // namespace ppsbench
