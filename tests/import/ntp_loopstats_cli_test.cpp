// SPDX-License-Identifier: GPL-2.0-or-later
// `ppsbench import ntp-peerstats PEERSTATS --loopstats LOOPSTATS` through the built binary: the
// cross-check speaks in notes and warnings, refuses under --strict, names a wrong file, and
// leaves the capture file as it was but for its record of the check.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli.hpp"
#include "fixture.hpp"

namespace ppsbench {
namespace {

using import::testing::fixture;
using import::testing::fixture_path;
using ppsbench::testing::contains;
using ppsbench::testing::read_text;
using ppsbench::testing::run_ppsbench;
using ppsbench::testing::TempDir;

// The capture's lines, with the `# meta` line's JSON apart.
struct CaptureText {
    nlohmann::json meta;
    std::vector<std::string> other_lines;
};

CaptureText split_capture(const std::string& path) {
    std::istringstream in(read_text(path));
    CaptureText c;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("# meta ")) {
            c.meta = nlohmann::json::parse(line.substr(7));
        } else {
            c.other_lines.push_back(line);
        }
    }
    return c;
}

TEST(NtpLoopstatsCli, TheCheckAddsANoteAndOnlyItsRecordToTheCapture) {
    TempDir dir;
    const auto plain = dir.file("plain.csv");
    const auto checked = dir.file("checked.csv");
    ASSERT_EQ(run_ppsbench({"import", "ntp-peerstats", fixture_path("ntp-peerstats"), "-o", plain})
                  .exit_code,
              0);
    const auto r = run_ppsbench({"import", "ntp-peerstats", fixture_path("ntp-peerstats"),
                                 "--loopstats", fixture_path("ntp-loopstats"), "-o", checked});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.err,
                         "ppsbench: note: cross-checked with ntpd's loopstats: at all 5 "
                         "updates where peer 127.127.22.0 was ntpd's PPS peer"))
        << r.err;
    EXPECT_FALSE(contains(r.err, "warning")) << r.err;
    // ntpd's jitter is shown beside the σ `report` gives these offsets.
    const auto report = run_ppsbench({"report", checked, "--format", "json"});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    const double sigma = nlohmann::json::parse(report.out)["runs"][0]["offset_ns"]["stddev"];
    EXPECT_TRUE(contains(r.err, fmt::format("median 995 ns in its loopstats (5 lines in peer "
                                            "127.127.22.0's time), while the imported offsets' "
                                            "standard deviation (the report's offset σ) is {:.0f} "
                                            "ns",
                                            sigma)))
        << r.err << sigma;
    auto with = split_capture(checked);
    const auto without = split_capture(plain);
    EXPECT_EQ(with.other_lines, without.other_lines);  // every pulse, header and end record
    EXPECT_EQ(with.meta["import"]["loopstats"]["agreeing_lines"], 5);
    with.meta["import"].erase("loopstats");
    EXPECT_EQ(with.meta, without.meta);
}

TEST(NtpLoopstatsCli, ADisagreementIsAWarningAndStrictRefusesIt) {
    TempDir dir;
    // The third update's offset, -0.000000789 s, logged 2 µs away.
    std::string loopstats = fixture("ntp-loopstats");
    const auto at = loopstats.find("-0.000000789");
    ASSERT_NE(at, std::string::npos);
    loopstats.replace(at, 12, "0.000001211");
    const auto path = dir.file("loopstats");
    std::ofstream(path) << loopstats;
    const std::vector<std::string> args{
        "import", "ntp-peerstats",    fixture_path("ntp-peerstats"), "--loopstats", path,
        "-o",     dir.file("run.csv")};
    const auto r = run_ppsbench(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "ppsbench: warning: " + path +
                                    ":3: ntpd's loopstats offset 0.000001211 s is not the offset "
                                    "-0.000000789 s of peer 127.127.22.0 at the same update (" +
                                    fixture_path("ntp-peerstats") + ":6), 2000 ns apart"))
        << r.err;
    auto strict = args;
    strict.back() = dir.file("strict.csv");
    strict.push_back("--strict");
    const auto refused = run_ppsbench(strict);
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_TRUE(contains(refused.err,
                         "1 of 5 updates where peer 127.127.22.0 was ntpd's PPS "
                         "peer disagree"))
        << refused.err;
    EXPECT_FALSE(std::ifstream(dir.file("strict.csv")).good());
}

TEST(NtpLoopstatsCli, AWrongFileIsNamedInOneLine) {
    TempDir dir;
    const auto r =
        run_ppsbench({"import", "ntp-peerstats", fixture_path("ntp-peerstats"), "--loopstats",
                      fixture_path("ppstest-assert-only.txt"), "-o", dir.file("run.csv")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "ppsbench import: " + fixture_path("ppstest-assert-only.txt") +
                         ": given to --loopstats, but this is ppstest output; --loopstats takes "
                         "ntpd's loopstats ('statistics loopstats' in ntp.conf)\n");
    const auto other =
        run_ppsbench({"import", "ppstest", fixture_path("ppstest-assert-only.txt"), "--loopstats",
                      fixture_path("ntp-loopstats"), "-o", dir.file("x.csv")});
    EXPECT_EQ(other.exit_code, 2);
    EXPECT_TRUE(contains(other.err, "--loopstats is an option of ntp-peerstats, not of ppstest"))
        << other.err;
}

TEST(NtpLoopstatsCli, TheHelpNamesTheOption) {
    const auto r = run_ppsbench({"import", "--help"});
    ASSERT_EQ(r.exit_code, 0);
    // In the options, not the usage line, which would pass 80 columns (Help.EveryLine...).
    EXPECT_TRUE(contains(r.out, "--loopstats arg")) << r.out;
    EXPECT_TRUE(contains(r.out, "ntp-peerstats: ntpd's loopstats of the same time")) << r.out;
}

}  // namespace
}  // namespace ppsbench
