// SPDX-License-Identifier: GPL-2.0-or-later
// An option that does nothing where it is given is refused, naming what would use it (issue 21):
// a source option its source does not read, a chrony option with --chrony off, a file option
// with no file. Given means typed, even at its default value. Every refusal is exit 2, one line,
// before any file is created; the same option is accepted where it does something.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

struct UnusedOptionRefusal {
    std::vector<std::string> args;
    std::string message;  // the whole line after "ppsbench COMMAND: "
};

void expect_refused_as_unused(const TempDir& dir, const std::vector<UnusedOptionRefusal>& cases) {
    for (const auto& c : cases) {
        const auto result = run_ppsbench(c.args);
        EXPECT_EQ(result.exit_code, 2) << c.message << "\n" << result.err;
        EXPECT_TRUE(contains(result.err, ": " + c.message + "\n"))
            << "wanted " << c.message << "\ngot " << result.err;
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    }
    EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "a refused command left a file";
}

TEST(UnusedOptions, ASourceOptionIsRefusedForASourceThatDoesNotReadIt) {
    TempDir dir;
    const auto out = dir.file("run.csv");
    expect_refused_as_unused(
        dir,
        {{{"run", "--source", "sim:threaded", "--bias", "pull-up", "-o", out},
          "--bias pull-up: only gpio: sources use it, and --source sim:threaded is not one; drop "
          "it"},
         {{"run", "--source", "sim:threaded", "--bias", "as-is", "-o", out},
          "--bias as-is: only gpio: sources use it, and --source sim:threaded is not one; drop "
          "it"},
         {{"run", "--source", "pps:/dev/pps0", "--seed", "7", "-o", out},
          "--seed 7: only sim: sources use it, and --source pps:/dev/pps0 is not one; drop it"},
         {{"run", "--source", "/dev/pps0", "--pace", "realtime", "-o", out},
          "--pace realtime: only replay: and sim: sources use it, and --source /dev/pps0 is not "
          "one; drop it"},
         {{"run", "--source", "pps:/dev/pps0", "--source", "ptp:/dev/ptp0", "--seed", "7", "-o",
           out},
          "--seed 7: only sim: sources use it, and --source pps:/dev/pps0 --source ptp:/dev/ptp0 "
          "are none of them; drop it"}});
}

TEST(UnusedOptions, ASourceOptionOneOfTwoSourcesReadsIsKept) {
    TempDir dir;
    const auto result = run_ppsbench({"run", "--source", "sim:hardirq", "--source",
                                      "replay:" + dir.file("absent.csv"), "--seed", "7", "-o",
                                      dir.file("run.csv")});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_FALSE(contains(result.err, "--seed")) << "sim: reads it: " << result.err;
}

TEST(UnusedOptions, RunRefusesChronyAndLiveFigureOptionsThatHaveNothingToShape) {
    TempDir dir;
    const auto out = dir.file("run.csv");
    const std::vector<std::string> sim{"run", "--source", "sim:hardirq", "--count", "5", "-o", out};
    const auto with = [&](std::vector<std::string> extra) {
        auto args = sim;
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    const std::string off = "chrony is not sampled with --chrony off; drop it, or use --chrony on";
    expect_refused_as_unused(
        dir,
        {{with({"--chrony", "off", "--chrony-refid", "PPS"}), "--chrony-refid PPS: " + off},
         {with({"--chrony", "off", "--chrony-socket", "/run/chrony/chronyd.sock"}),
          "--chrony-socket /run/chrony/chronyd.sock: " + off},
         {with({"--chrony", "off", "--chrony-interval", "16s"}), "--chrony-interval 16s: " + off},
         {with({"--chrony", "off", "--chrony-conf", "/etc/passwd"}),
          "--chrony-conf /etc/passwd: " + off},
         {with({"--prometheus-interval", "30s"}),
          "--prometheus-interval 30s: it sets how often --prometheus FILE is rewritten, and "
          "there is no --prometheus; drop it, or add --prometheus FILE"}});
}

TEST(UnusedOptions, ReportRefusesColumnsTablesAndBinsItWouldNotShow) {
    TempDir dir;
    const std::string file = dir.file("absent.csv");  // refused before any file is read
    expect_refused_as_unused(
        dir,
        {{{"report", file, "--verbose", "--metrics", "sigma"},
          "--metrics sigma: --verbose shows every table whatever the columns; drop one of the "
          "two"},
         {{"report", file, "--format", "json", "--metrics", "sigma"},
          "--metrics sigma: the JSON document holds every metric (docs/report-json.md); drop "
          "it, or use --format text, markdown or csv"},
         {{"report", file, "--format", "json", "--verbose"},
          "--verbose: the JSON document holds every table's figures; drop it"},
         {{"report", file, "--bin-width", "100ns"},
          "--bin-width 100ns: it sets the bins of --histogram, --plot and --html, and there is "
          "none of them; drop it, or add --histogram"},
         {{"report", file, "--force"},
          "--force: there is no --plot, --plot-stability, --prometheus or --html file to "
          "overwrite; drop it"},
         {{"report", file, "--plot-log-counts"},
          "--plot-log-counts: it sets the histogram axis of --plot and --html, and there is "
          "neither; drop it, or add --plot FILE.svg"}});
}

TEST(UnusedOptions, CompareAndGateRefuseWhatTheirVerdictsDoNotUse) {
    TempDir dir;
    const std::string a = dir.file("a.csv");
    const std::string b = dir.file("b.csv");
    expect_refused_as_unused(
        dir, {{{"compare", "--baseline", a, b, "--bin-width", "1us"},
               "--bin-width 1us: it sets the histogram bins of --plot and --html, and there is "
               "neither; drop it, or add --plot FILE.svg"},
              {{"compare", "--baseline", a, b, "--force"},
               "--force: there is no --plot, --plot-stability, --prometheus or --html file to "
               "overwrite; drop it"},
              {{"gate", b, "--max-sigma", "3us", "--confidence", "0.99"},
               "--confidence 0.99: it is the level of --max-ratio's interval, and there is no "
               "--max-ratio; drop it"},
              {{"gate", b, "--max-sigma", "3us", "--force"},
               "--force: there is no --junit or --html file to overwrite; drop it"},
              {{"gate", b, "--max-sigma", "3us", "--bin-width", "1us"},
               "--bin-width 1us: the gate judges no histogram, and it sets the bins of --html's "
               "only; drop it, or add --html FILE.html"}});
}

// The options refused above, where they do something.
TEST(UnusedOptions, EachIsAcceptedWhereItDoesSomething) {
    TempDir dir;
    // --chrony auto (the default) may sample chrony: the interval is kept for it.
    const auto run =
        run_ppsbench({"run", "--source", "sim:hardirq", "--seed", "7", "--pace", "fast", "--count",
                      "200", "--chrony-interval", "16s", "--quiet", "-o", dir.file("a.csv")});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto json = run_ppsbench(
        {"report", dir.file("a.csv"), "--format", "json", "--histogram", "--bin-width", "100ns"});
    EXPECT_EQ(json.exit_code, 0) << json.err;
    EXPECT_TRUE(contains(json.out, "\"bin_width_ns\": 100.0")) << json.out;
    // The text histogram takes it too: one bin width in every output (bin_width_test.cpp).
    const auto text =
        run_ppsbench({"report", dir.file("a.csv"), "--histogram", "--bin-width", "100ns"});
    EXPECT_EQ(text.exit_code, 0) << text.err;
    EXPECT_TRUE(contains(text.out, "100 ns wide")) << text.out;
    const auto gate = run_ppsbench({"gate", "--baseline", dir.file("a.csv"), dir.file("a.csv"),
                                    "--max-ratio", "2", "--confidence", "0.9"});
    EXPECT_EQ(gate.exit_code, 0) << gate.err;
    const auto report = run_ppsbench(
        {"report", dir.file("a.csv"), "--plot", dir.file("p.svg"), "--plot-log-counts", "--force"});
    EXPECT_EQ(report.exit_code, 0) << report.err;
}

}  // namespace
}  // namespace ppsbench
