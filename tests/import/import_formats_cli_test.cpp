// SPDX-License-Identifier: GPL-2.0-or-later
// Every `ppsbench import` format through the built binary, from the table's point of view: a
// good file (a real excerpt, tests/import/fixtures/README.md), another format's file (refused,
// named), an option of another format (refused, named) and an empty file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "fixture.hpp"
#include "ppsbench/import/formats.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench {
namespace {

using import::testing::fixture_path;
using ppsbench::testing::contains;
using ppsbench::testing::run_ppsbench;
using ppsbench::testing::TempDir;

struct FormatCase {
    std::string format;
    std::vector<std::string> good;  // the fixture and the options it needs
    std::string expected;           // in stdout (CSV header) or the capture's pulse count
    std::string foreign;            // another format's fixture
    std::string foreign_is;         // what the refusal calls it
    std::string other_option;       // an option of another format
};

const std::vector<FormatCase>& cases() {
    static const std::vector<FormatCase> all{
        {"chrony-statistics",
         {"chrony-statistics.log"},
         "time_ns,source,std_dev_ns",
         "ntp-loopstats-pfsense",
         "ntpd/NTPsec loopstats",
         "--refid"},
        {"ppswatch",
         {"ppswatch-friendlywrt.txt"},
         "26 pulses",
         "ppstest-assert-clear.txt",
         "ppstest output",
         "--peer"},
        {"ntp-loopstats",
         {"ntp-loopstats-pfsense"},
         "time_ns,offset_ns,frequency_ppm",
         "ntp-peerstats",
         "ntpd/NTPsec peerstats",
         "--logbanner"},
        {"ts2phc",
         {"ts2phc-extts-cm4.log"},
         "3 pulses",
         "phc2sys-k3.log",
         "linuxptp's phc2sys log",
         "--unit"},
        {"phc2sys",
         {"phc2sys-k3.log"},
         "uptime_s,clock,offset_ns,servo_state,freq_ppb,delay_ns,source",
         "openshift-ts2phc-phc2sys.log",
         "linuxptp's ts2phc log",
         "--clock"},
        {"ntpshmmon",
         {"ntpshmmon-manual.txt"},
         "4 pulses",
         "ppswatch-friendlywrt.txt",
         "ppswatch output",
         "--edge"},
        {"ntp-peerstats",
         {"ntp-peerstats-pfsense", "--peer", "127.127.20.0"},
         "41 pulses",
         "ntp-loopstats-pfsense",
         "ntpd/NTPsec loopstats",
         "--offset"},
    };
    return all;
}

std::vector<std::string> command(const FormatCase& c, const std::string& file,
                                 const std::string& output) {
    std::vector<std::string> args{"import", c.format, fixture_path(file)};
    args.insert(args.end(), c.good.begin() + 1, c.good.end());
    if (!output.empty()) {
        args.insert(args.end(), {"-o", output});
    }
    return args;
}

bool writes_csv(const std::string& format) {
    return import::find_import_format(format)->output == import::ImportOutput::csv;
}

TEST(ImportFormatsCli, EachFormatReadsItsOwnRealExcerpt) {
    for (const auto& c : cases()) {
        TempDir dir;
        const auto output = writes_csv(c.format) ? "" : dir.file("run.csv");
        const auto r = run_ppsbench(command(c, c.good.front(), output));
        ASSERT_EQ(r.exit_code, 0) << c.format << ": " << r.err;
        EXPECT_TRUE(contains(r.out, c.expected)) << c.format << ": " << r.out;
        if (!output.empty()) {
            // report reads what import wrote.
            const auto report = run_ppsbench({"report", output, "--format", "json"});
            EXPECT_EQ(report.exit_code, 0) << c.format << ": " << report.err;
        }
    }
}

TEST(ImportFormatsCli, EachFormatRefusesAnotherFormatsFileNamingIt) {
    for (const auto& c : cases()) {
        TempDir dir;
        const auto r = run_ppsbench(command(c, c.foreign, dir.file("run.csv")));
        EXPECT_EQ(r.exit_code, 2) << c.format;
        EXPECT_TRUE(contains(r.err, "this is " + c.foreign_is + "; import " + c.format + " reads"))
            << c.format << ": " << r.err;
    }
}

// The issue's case: linuxptp's and gpsd's logs given to ntp-peerstats were "no PPS peer ...
// peers in the file: none"; they are named instead.
TEST(ImportFormatsCli, PeerstatsNamesTheLogsItIsGivenByMistake) {
    const std::vector<std::pair<std::string, std::string>> logs{
        {"ts2phc-tstamp-i210.log", "linuxptp's ts2phc log; import ntp-peerstats reads"},
        {"phc2sys-k3.log", "linuxptp's phc2sys log; import ntp-peerstats reads"},
        {"ntpshmmon-manual.txt", "gpsd's ntpshmmon output; import ntp-peerstats reads"}};
    for (const auto& [file, named] : logs) {
        TempDir dir;
        const auto r = run_ppsbench(
            {"import", "ntp-peerstats", fixture_path(file), "-o", dir.file("run.csv")});
        EXPECT_EQ(r.exit_code, 2) << file;
        EXPECT_TRUE(contains(r.err, "this is " + named)) << file << ": " << r.err;
    }
}

TEST(ImportFormatsCli, EachFormatRefusesTheOptionsOfTheOthersByName) {
    for (const auto& c : cases()) {
        TempDir dir;
        auto args = command(c, c.good.front(), dir.file("run.csv"));
        args.insert(args.end(), {c.other_option, "3"});
        const auto r = run_ppsbench(args);
        EXPECT_EQ(r.exit_code, 2) << c.format;
        const std::string option = c.other_option.substr(2);
        EXPECT_TRUE(contains(r.err, c.other_option + " is an option of " +
                                        import::formats_taking(option) + ", not of " + c.format))
            << c.format << ": " << r.err;
    }
    // The two: tracking with --refid, refclocks with --logbanner.
    const auto tracking =
        run_ppsbench({"import", "chrony-tracking", fixture_path("chrony-tracking-cyclelogs.log"),
                      "--refid", "PPS"});
    EXPECT_EQ(tracking.exit_code, 2);
    EXPECT_TRUE(
        contains(tracking.err, "--refid is an option of chrony-refclocks, not of chrony-tracking"))
        << tracking.err;
    TempDir dir;
    const auto refclocks = run_ppsbench(
        {"import", "chrony-refclocks", "x.log", "--logbanner", "3", "-o", dir.file("r.csv")});
    EXPECT_EQ(refclocks.exit_code, 2);
    EXPECT_TRUE(contains(refclocks.err,
                         "--logbanner is an option of chrony-tracking, not of chrony-refclocks"))
        << refclocks.err;
}

TEST(ImportFormatsCli, AnEmptyFileIsNoDataNamedAsSuch) {
    for (const auto& c : cases()) {
        TempDir dir;
        ppsbench::testing::write_text(dir.file("empty.log"), "");
        std::vector<std::string> args{"import", c.format, dir.file("empty.log")};
        args.insert(args.end(), c.good.begin() + 1, c.good.end());
        if (!writes_csv(c.format)) {
            args.insert(args.end(), {"-o", dir.file("run.csv")});
        }
        const auto r = run_ppsbench(args);
        EXPECT_EQ(r.exit_code, 2) << c.format << ": " << r.out;
        EXPECT_TRUE(contains(r.err, "no ")) << c.format << ": " << r.err;
        EXPECT_EQ(r.out, "") << c.format << ": no header-only CSV";
    }
}

TEST(ImportFormatsCli, HelpUsageAndDidYouMeanComeFromTheTable) {
    const auto help = run_ppsbench({"import", "--help"});
    ASSERT_EQ(help.exit_code, 0);
    for (const auto& f : import::import_formats()) {
        EXPECT_TRUE(contains(help.out, "ppsbench import " + std::string(f.name) + " "))
            << f.name << " not in the usage";
        EXPECT_TRUE(contains(help.out, "  " + std::string(f.name) + " ")) << f.name;
    }
    // docs/import.md's list is checked against the table, row by row.
    const std::string docs =
        ppsbench::testing::read_text(std::string(PPSBENCH_SOURCE_DIR) + "/docs/import.md");
    for (const auto& f : import::import_formats()) {
        EXPECT_TRUE(contains(docs, "| `" + std::string(f.name) + "` | " + std::string(f.reads)))
            << f.name << " is not in docs/import.md's table as the program describes it";
    }
    const auto typo = run_ppsbench({"import", "ppswach", "x"});
    EXPECT_EQ(typo.exit_code, 2);
    EXPECT_TRUE(contains(typo.err, "did you mean 'ppswatch'")) << typo.err;
}

// ppswatch printed "Mean value: -189.423" and "Standard deviation: 3460.59" (dividing by n) for
// its 26 pulses; the report of the imported capture has the same mean, and a σ larger by
// √(n/(n−1)) because it divides by n − 1.
TEST(ImportFormatsCli, TheReportOfAPpswatchImportAgreesWithPpswatchsOwnFigures) {
    TempDir dir;
    const auto out = dir.file("pw.csv");
    ASSERT_EQ(
        run_ppsbench({"import", "ppswatch", fixture_path("ppswatch-friendlywrt.txt"), "-o", out})
            .exit_code,
        0);
    const auto report = run_ppsbench({"report", out, "--format", "json"});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    const auto offset = nlohmann::json::parse(report.out).at("runs").at(0).at("offset_ns");
    EXPECT_NEAR(offset.at("mean").get<double>(), -189.423, 0.0005);
    EXPECT_NEAR(offset.at("stddev").get<double>(), 3460.59 * std::sqrt(26.0 / 25.0), 0.01);
    EXPECT_EQ(offset.at("max").get<double>(), 3870.0);
    EXPECT_EQ(offset.at("abs_percentiles").at("max").get<double>(), 5414.0)
        << "ppswatch's Maximum divergence";
}

// The same session with its mean misprinted: ppswatch's closing figures contradict its lines,
// which the import says as a warning naming the summary's line; --strict refuses the file.
TEST(ImportFormatsCli, PpswatchsFiguresThatContradictItsLinesAreAWarningAndStrictRefuses) {
    TempDir dir;
    auto text = ppsbench::testing::read_text(fixture_path("ppswatch-friendlywrt.txt"));
    const auto at = text.find("Mean value: -189.423");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 20, "Mean value: -189.523");
    ppsbench::testing::write_text(dir.file("watch.txt"), text);
    const auto r =
        run_ppsbench({"import", "ppswatch", dir.file("watch.txt"), "-o", dir.file("a.csv")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "warning: " + dir.file("watch.txt") +
                                    ":32: ppswatch's closing figures contradict the 26 event "
                                    "lines before them: mean -189.523 ns printed, -189.423077 ns "
                                    "from the lines"))
        << r.err;
    const auto strict = run_ppsbench(
        {"import", "ppswatch", dir.file("watch.txt"), "--strict", "-o", dir.file("b.csv")});
    EXPECT_EQ(strict.exit_code, 2) << strict.err;
    EXPECT_TRUE(contains(strict.err, "drop --strict")) << strict.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("b.csv")));
}

// A ts2phc capture keeps the PHC's TAI clock; report still measures its phase (TAI's seconds
// are true seconds), as it does for CLOCK_REALTIME.
TEST(ImportFormatsCli, Ts2phcCapturesAreOnTheTaiClockAndHaveAPhase) {
    TempDir dir;
    const auto out = dir.file("phc.csv");
    const auto r =
        run_ppsbench({"import", "ts2phc", fixture_path("ts2phc-tstamp-i210.log"), "-o", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "the capture's clock is tai")) << r.err;
    EXPECT_EQ(store::read_capture_file(out).run_meta.clock, core::ClockId::tai);
    const auto report = run_ppsbench({"report", out, "--format", "json"});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    const auto run = nlohmann::json::parse(report.out).at("runs").at(0);
    EXPECT_EQ(run.at("offset_ns").at("mean").get<double>(), (-2410 - 2486 - 2495 - 2 + 741) / 5.0)
        << report.out;
}

// Without --strict a failed import says which lines were not the format's, and why.
TEST(ImportFormatsCli, ARefusalNamesTheLinesItSkipped) {
    TempDir dir;
    ppsbench::testing::write_text(dir.file("p.txt"),
                                  "source 0 - assert garbage\nsource 0 - assert 12, sequence\n");
    const auto r = run_ppsbench({"import", "ppstest", dir.file("p.txt"), "-o", dir.file("o.csv")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(r.err, "2 lines were skipped, e.g. " + dir.file("p.txt") + ":1: "))
        << r.err;
    EXPECT_TRUE(contains(r.err, dir.file("p.txt") + ":2: ")) << r.err;
}

}  // namespace
}  // namespace ppsbench
