// SPDX-License-Identifier: GPL-2.0-or-later
// Issue 23, as a new user tried it on main: each command as written there, then what is on
// disk afterwards. Outputs never replace inputs or each other; state files (.prom, JUnit) are
// replaced on every run; a gate that cannot judge says so in its JUnit file.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::read_text;
using testing::run_ppsbench;
using testing::TempDir;

constexpr const char* refclocks_log =
    "2009-11-30 14:33:27.000000 PPS     0 N 1  4.900000e-07 -6.741777e-07  1.000e-06\n"
    "2009-11-30 14:33:28.000000 PPS     0 N 1 -1.234000e-06 -1.000000e-06  1.000e-06\n"
    "2009-11-30 14:33:29.000000 PPS     0 N 1  2.000000e-09  0.000000e+00  1.000e-06\n";

constexpr const char* tracking_log_line =
    "2017-08-22 13:22:36 203.0.113.15     2     -3.541      0.075 -8.621e-06 N "
    "2  2.940e-03 -2.084e-04  1.534e-02  3.472e-04  8.304e-03\n";

void write_capture(const std::string& path, const std::string& model = "sim:hardirq",
                   const std::string& count = "300") {
    const auto r = run_ppsbench({"run", "-q", "-s", model, "--count", count, "-o", path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
}

// main: the live .prom file replaced the capture, the run ended with "clash.csv:1: not a
// ppsbench capture file", and every pulse was lost.
TEST(OutputsOverwriteInputs, RunRefusesTheCaptureAsItsOwnPrometheusFile) {
    TempDir dir;
    const auto clash = dir.file("clash.csv");
    const auto r = run_ppsbench(
        {"run", "-q", "-s", "sim:hardirq", "--count", "20", "-o", clash, "--prometheus", clash});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(r.err, "--prometheus " + clash + " is also -o " + clash)) << r.err;
    EXPECT_FALSE(std::filesystem::exists(clash)) << "refused before anything was created";
    // An earlier capture of that name survives even --force.
    write_capture(clash);
    const auto before = read_text(clash);
    const auto forced = run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "20", "-o",
                                      clash, "--prometheus", clash, "--force"});
    EXPECT_EQ(forced.exit_code, 2) << forced.err;
    EXPECT_EQ(read_text(clash), before);
}

// main: with --force, each of these replaced its own input.
TEST(OutputsOverwriteInputs, NoCommandReplacesItsOwnInputEvenWithForce) {
    TempDir dir;
    const auto v = dir.file("v.csv");
    const auto s = dir.file("s.csv");
    write_capture(v, "sim:threaded");
    write_capture(s);
    testing::write_text(dir.file("tv.log"), tracking_log_line);
    testing::write_text(dir.file("rv.log"), refclocks_log);
    const struct {
        std::vector<std::string> args;
        std::string input;
        std::string why;
    } cases[] = {
        {{"report", v, "--prometheus", v, "--force"},
         v,
         "--prometheus " + v + " is also the input"},
        {{"compare", "--baseline", s, v, "--prometheus", v, "--force"},
         v,
         "--prometheus " + v + " is also the input"},
        {{"compare", "--baseline", s, v, "--prometheus", s, "--force"},
         s,
         "--prometheus " + s + " is also --baseline " + s},
        {{"gate", v, "--max-sigma", "3us", "--junit", v, "--force"},
         v,
         "--junit " + v + " is also the input"},
        {{"import", "chrony-tracking", dir.file("tv.log"), "-o", dir.file("tv.log"), "--force"},
         dir.file("tv.log"),
         "-o " + dir.file("tv.log") + " is also the input"},
        {{"import", "chrony-refclocks", dir.file("rv.log"), "-o", dir.file("rv.log"), "--force"},
         dir.file("rv.log"),
         "-o " + dir.file("rv.log") + " is also the input"},
        {{"run", "-q", "-s", "replay:" + v, "-o", v, "--force"},
         v,
         "-o " + v + " is also --source replay:" + v},
    };
    for (const auto& c : cases) {
        const auto before = read_text(c.input);
        const auto r = run_ppsbench(c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args[0] << ": " << r.err;
        EXPECT_TRUE(contains(r.err, c.why)) << r.err;
        EXPECT_TRUE(contains(r.err, "not even with --force")) << r.err;
        EXPECT_EQ(r.out, "") << "refused before any work";
        EXPECT_EQ(read_text(c.input), before) << c.args[0] << " changed " << c.input;
    }
}

// main: one of the two plots was lost without a word.
TEST(OutputsOverwriteInputs, TwoPlotsInOneFileAreRefusedNamingBoth) {
    TempDir dir;
    const auto v = dir.file("v.csv");
    write_capture(v);
    const auto same = dir.file("same.svg");
    const auto r = run_ppsbench({"report", v, "--plot", same, "--plot-stability", same, "--force"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(r.err, "--plot-stability " + same + " is also --plot " + same)) << r.err;
    EXPECT_FALSE(std::filesystem::exists(same));
}

// A capture mistyped as the state file is not a state file: refused, and it survives.
TEST(OutputsOverwriteInputs, APrometheusFilePpsbenchDidNotWriteIsRefused) {
    TempDir dir;
    const auto stock = dir.file("stock.csv");
    const auto rt = dir.file("rt.csv");
    write_capture(stock);
    write_capture(rt, "sim:threaded");
    const auto before = read_text(stock);
    const auto r = run_ppsbench({"report", rt, "--prometheus", stock});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(
        r.err, "--prometheus " + stock + ": the file exists and ppsbench did not write it"))
        << r.err;
    EXPECT_EQ(read_text(stock), before);
    const auto live = run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "5", "-o",
                                    dir.file("new.csv"), "--prometheus", stock});
    EXPECT_EQ(live.exit_code, 2) << live.err;
    EXPECT_EQ(read_text(stock), before);
    EXPECT_FALSE(std::filesystem::exists(dir.file("new.csv")));
}

// main: the documented node_exporter recipe exited 2 with "the file exists; pass --force" on
// its second day.
TEST(RecipesFailFromTheirSecondRun, ReportPrometheusReplacesItsOwnFileEveryDay) {
    TempDir dir;
    const auto last = dir.file("last.csv");
    const auto prom = dir.file("ppsbench.prom");
    write_capture(last);
    ASSERT_EQ(run_ppsbench({"report", last, "--prometheus", prom}).exit_code, 0);
    EXPECT_TRUE(contains(read_text(prom), "run=\"sim:hardirq\""));
    // The next day's capture, the same command.
    std::filesystem::remove(last);
    ASSERT_EQ(run_ppsbench({"run", "-q", "-s", "sim:threaded", "--count", "300", "--label", "day2",
                            "-o", last})
                  .exit_code,
              0);
    const auto again = run_ppsbench({"report", last, "--prometheus", prom});
    EXPECT_EQ(again.exit_code, 0) << again.err;
    const auto text = read_text(prom);
    EXPECT_TRUE(contains(text, "run=\"day2\"")) << text;
    EXPECT_FALSE(contains(text, "run=\"sim:hardirq\"")) << text;
}

// main: ppsbench-nightly.service's compare exited 2 on the second night.
TEST(RecipesFailFromTheirSecondRun, CompareRepublishesWithoutForce) {
    TempDir dir;
    const auto baseline = dir.file("baseline.csv");
    const auto night = dir.file("night.csv");
    const auto prom = dir.file("ppsbench-nightly.prom");
    write_capture(baseline);
    write_capture(night);
    for (int n = 0; n < 2; ++n) {
        const auto r =
            run_ppsbench({"compare", "--baseline", baseline, night, "--prometheus", prom});
        EXPECT_EQ(r.exit_code, 0) << "night " << n + 1 << ": " << r.err;
    }
    EXPECT_TRUE(contains(read_text(prom), "# HELP ppsbench_"));
}

// The live metrics say run="sim:hardirq" as `report` does (main: run="").
TEST(RecipesFailFromTheirSecondRun, LivePrometheusIsLabelledAsReportLabelsTheRun) {
    TempDir dir;
    const auto prom = dir.file("live.prom");
    const auto r = run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "30", "-o",
                                 dir.file("run.csv"), "--prometheus", prom});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto live = read_text(prom);
    EXPECT_TRUE(contains(live, "run=\"sim:hardirq\"")) << live;
    EXPECT_FALSE(contains(live, "run=\"\"")) << live;
    // The second run replaces the state file without --force.
    const auto again = run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "30", "-o",
                                     dir.file("run2.csv"), "--prometheus", prom});
    EXPECT_EQ(again.exit_code, 0) << again.err;
    const auto report_prom = dir.file("report.prom");
    ASSERT_EQ(run_ppsbench({"report", dir.file("run.csv"), "--prometheus", report_prom}).exit_code,
              0);
    EXPECT_TRUE(contains(read_text(report_prom), "run=\"sim:hardirq\""));
}

// xmllint's answer without its newline.
std::string xpath(const std::string& file, const std::string& expression) {
    auto out = testing::run_program({"xmllint", "--xpath", expression, file}).out;
    while (!out.empty() && out.back() == '\n') {
        out.pop_back();
    }
    return out;
}

// main: a passing gate, then a gate that could not judge (exit 2), left failures="0" for CI
// to show green.
TEST(JunitLies, AGateThatCannotJudgeReplacesTheGreenFileWithAnError) {
    TempDir dir;
    const auto good = dir.file("good.csv");
    const auto one = dir.file("one.csv");
    const auto ci = dir.file("ci.xml");
    write_capture(good);
    write_capture(one, "sim:hardirq", "3");
    const auto pass = run_ppsbench({"gate", good, "--max-sigma", "3us", "--junit", ci});
    ASSERT_EQ(pass.exit_code, 0) << pass.err;
    ASSERT_EQ(xpath(ci, "string(/testsuites/@failures)"), "0");
    const auto cannot = run_ppsbench({"gate", one, "--max-sigma", "3us", "--junit", ci, "--force"});
    EXPECT_EQ(cannot.exit_code, 2) << cannot.err;
    EXPECT_EQ(testing::run_program({"xmllint", "--noout", ci}).exit_code, 0) << read_text(ci);
    EXPECT_EQ(xpath(ci, "string(/testsuites/@errors)"), "1") << read_text(ci);
    EXPECT_EQ(xpath(ci, "count(//testcase/error)"), "1") << read_text(ci);
    EXPECT_EQ(xpath(ci, "count(//testcase/failure)"), "0") << read_text(ci);
    const auto reason = xpath(ci, "string(//testcase/error/@message)");
    EXPECT_TRUE(contains(reason, "one.csv")) << reason;
    EXPECT_TRUE(contains(cannot.err, reason)) << "the same reason as on stderr: " << cannot.err;
    // Without --force too: the JUnit file is state.
    const auto bad_limit = run_ppsbench({"gate", good, "--max-sigma", "3", "--junit", ci});
    EXPECT_EQ(bad_limit.exit_code, 2);
    EXPECT_TRUE(contains(xpath(ci, "string(//testcase/error/@message)"), "--max-sigma"))
        << read_text(ci);
    // And a judging gate takes the file back.
    ASSERT_EQ(run_ppsbench({"gate", good, "--max-sigma", "3us", "--junit", ci}).exit_code, 0);
    EXPECT_EQ(xpath(ci, "string(/testsuites/@errors)"), "0");
}

}  // namespace
}  // namespace ppsbench
