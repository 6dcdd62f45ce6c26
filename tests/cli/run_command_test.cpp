// SPDX-License-Identifier: GPL-2.0-or-later
// End-to-end: the built ppsbench binary, real files, real signals.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <sstream>
#include <thread>

#include "cli.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

TEST(RunCommand, HelpExplainsEveryOption) {
    const auto result = run_ppsbench({"run", "--help"});
    EXPECT_EQ(result.exit_code, 0);
    for (const char* option :
         {"--source", "--duration", "--count", "--label", "--output", "--force", "--edge",
          "--period", "--seed", "--pace", "--timeout", "--rt-priority", "--cpu", "--mlock",
          "--quiet", "sim:MODEL", "replay:FILE", "pps:/dev/ppsN"}) {
        EXPECT_TRUE(contains(result.out, option)) << option << " missing from run --help";
    }
}

TEST(RunCommand, TopLevelHelpListsTheCommands) {
    const auto result = run_ppsbench({"--help"});
    EXPECT_EQ(result.exit_code, 0);
    for (const char* command : {"run", "report", "demo"}) {
        EXPECT_TRUE(contains(result.out, command));
    }
    EXPECT_EQ(run_ppsbench({}).exit_code, 2);
    EXPECT_EQ(run_ppsbench({"frobnicate"}).exit_code, 2);
}

// main: "1 pulses (count) written".
TEST(RunCommand, TheLastLineCountsOnePulseInTheSingular) {
    TempDir dir;
    const auto one = run_ppsbench(
        {"run", "-q", "--source", "sim:hardirq", "--count", "1", "-o", dir.file("one.csv")});
    EXPECT_TRUE(contains(one.out, "\n1 pulse (count) written to " + dir.file("one.csv")))
        << one.out << one.err;
    const auto two = run_ppsbench(
        {"run", "-q", "--source", "sim:hardirq", "--count", "2", "-o", dir.file("two.csv")});
    EXPECT_TRUE(contains(two.out, "\n2 pulses (count) written to " + dir.file("two.csv")))
        << two.out << two.err;
}

TEST(RunCommand, SimulatedRunWritesAFileThatReportReads) {
    TempDir dir;
    const auto path = dir.file("rt.csv");
    const auto run = run_ppsbench(
        {"run", "--source", "sim:threaded", "--count", "600", "--label", "PREEMPT_RT", "-o", path});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_TRUE(contains(run.out, "PREEMPT_RT (simulated)")) << run.out;
    EXPECT_TRUE(contains(run.out, "600 pulses (count) written to")) << run.out;
    EXPECT_TRUE(run.err.empty()) << "no status line on a pipe: " << run.err;

    const auto file = store::read_capture_file(path);
    EXPECT_EQ(file.pulses.size(), 600U);
    EXPECT_TRUE(file.simulated());
    EXPECT_EQ(file.meta.at("label"), "PREEMPT_RT");
    ASSERT_NE(file.end_record(), nullptr);
    EXPECT_EQ(file.end_record()->at("stop_reason"), "count");

    const auto report = run_ppsbench({"report", path});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    EXPECT_TRUE(contains(report.out, "PREEMPT_RT (simulated)"));
    EXPECT_TRUE(contains(report.out, "SIMULATED"));
    EXPECT_TRUE(contains(report.out, "600"));
}

TEST(RunCommand, ReplayReproducesTheCapturedPulses) {
    TempDir dir;
    const auto original = dir.file("original.csv");
    const auto copy = dir.file("copy.csv");
    ASSERT_EQ(run_ppsbench({"run", "-s", "sim:hardirq,missed=0.02", "--duration", "10m", "-o",
                            original, "--label", "stock"})
                  .exit_code,
              0);
    const auto replay =
        run_ppsbench({"run", "-s", "replay:" + original, "-o", copy, "--label", "stock"});
    ASSERT_EQ(replay.exit_code, 0) << replay.err;
    EXPECT_TRUE(contains(replay.out, "(end_of_stream)")) << replay.out;
    const auto a = store::read_capture_file(original);
    const auto b = store::read_capture_file(copy);
    EXPECT_EQ(a.pulses, b.pulses);
    EXPECT_TRUE(b.simulated()) << "a replayed simulation is still a simulation";
    // The two reports agree figure for figure.
    EXPECT_EQ(run_ppsbench({"report", original}).out, run_ppsbench({"report", copy}).out);
}

TEST(RunCommand, NeverOverwritesACaptureWithoutForce) {
    TempDir dir;
    const auto path = dir.file("stock.csv");
    ASSERT_EQ(run_ppsbench({"run", "-s", "sim:hardirq", "--count", "5", "-o", path}).exit_code, 0);
    const auto again = run_ppsbench({"run", "-s", "sim:hardirq", "--count", "5", "-o", path});
    EXPECT_EQ(again.exit_code, 2);
    EXPECT_TRUE(contains(again.err, "file exists; pass --force")) << again.err;
    EXPECT_EQ(
        run_ppsbench({"run", "-s", "sim:hardirq", "--count", "7", "-o", path, "--force"}).exit_code,
        0);
    EXPECT_EQ(store::read_capture_file(path).pulses.size(), 7U);
}

struct BadInput {
    std::vector<std::string> args;
    std::string expected;  // part of the one-line message
};

TEST(RunCommand, BadInputGetsOneLineNamingTheFixAndExitTwo) {
    TempDir dir;
    const std::vector<BadInput> cases = {
        {{"--source", "pps:/dev/pps-missing"}, "/dev/pps-missing: no such PPS device"},
        {{"--source", "pps:/dev/null"}, "/dev/null: not a PPS device"},
        {{"--source", "gpio:gpiochip9:17"}, "gpio:gpiochip9: no such GPIO chip"},
        {{"--source", "gpio:no-such-chip-label:GPIO17"}, "list chips with 'gpiodetect'"},
        {{"--source", "gpio:gpiochip9:17", "--bias", "up"},
         "gpio:gpiochip9:17: --bias up: use as-is, pull-up, pull-down or disable"},
        {{"--duration", "-3"}, "--duration: '-3' is not a duration"},
        {{"--count", "0"}, "--count 0"},
        {{"--source", "gps:/dev/ttyS0"}, "unknown scheme 'gps'"},
        {{"--source", "sim:hardirq", "--edge", "up"}, "--edge up"},
        {{"--source", "sim:hardirq", "--period", "0"}, "--period"},
        {{"--source", "sim:hardirq", "--count", "1", "-o", "/nonexistent-dir/x.csv"},
         "the folder /nonexistent-dir does not exist"},
        {{"--source", "sim:hardirq", "--count", "3", "--duration", "1m"}, "not both"},
        {{"--source", "sim:hardirq", "--cpu", "4096"}, "--cpu 4096: no such CPU"},
        {{"--source", "sim:hardirq", "--rt-priority", "200"}, "--rt-priority 200: must be"},
        {{"--bogus"}, "unrecognised option '--bogus'"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> args{"run"};
        if (std::find(c.args.begin(), c.args.end(), "-o") == c.args.end()) {
            args.insert(args.end(), {"-o", dir.file("out.csv")});
        }
        args.insert(args.end(), c.args.begin(), c.args.end());
        const auto result = run_ppsbench(args);
        EXPECT_EQ(result.exit_code, 2) << c.expected << "\n" << result.err;
        EXPECT_TRUE(contains(result.err, c.expected))
            << "wanted: " << c.expected << "\ngot: " << result.err;
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
        EXPECT_TRUE(result.err.starts_with("ppsbench run: ")) << result.err;
    }
    EXPECT_FALSE(std::filesystem::exists(dir.file("out.csv")))
        << "a failed setup must not leave a file behind";
}

TEST(RunCommand, NoPulseWithinTheTimeoutSaysWhatToCheck) {
    TempDir dir;
    // A period of one hour, paced in real time: the first pulse is far away.
    const auto result = run_ppsbench({"run", "-s", "sim:hardirq", "--pace", "realtime", "--period",
                                      "1h", "--timeout", "300ms", "-o", dir.file("none.csv")});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "no pulse within")) << result.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("none.csv")));
}

TEST(RunCommand, PermissionDeniedSaysRootOrUdevGroup) {
    if (::access("/usr/bin/setpriv", X_OK) != 0) {
        GTEST_SKIP() << "setpriv (util-linux) is needed to drop root for this test";
    }
    TempDir dir;
    const auto device = dir.file("pps-private");
    testing::write_text(device, "");
    ::chmod(device.c_str(), 0600);
    ::chmod(dir.path().c_str(), 0755);
    const auto result = testing::run_program({"/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
                                              "--clear-groups", PPSBENCH_BINARY, "run", "--source",
                                              "pps:" + device});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_TRUE(contains(result.err, "permission denied; run as root, or add a udev rule"))
        << result.err;
}

// Ctrl-C (SIGINT) and SIGTERM end the run cleanly: the file is complete and closed, the
// summary is printed, and the exit code is 0.
class StopSignal : public ::testing::TestWithParam<int> {};

TEST_P(StopSignal, EndsTheRunKeepingEveryPulse) {
    TempDir dir;
    const auto path = dir.file("stopped.csv");
    const auto out_path = dir.file("stdout");
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(out, STDOUT_FILENO);
        execl(PPSBENCH_BINARY, PPSBENCH_BINARY, "run", "-s", "sim:hardirq", "--pace", "realtime",
              "--period", "10ms", "--duration", "1h", "-o", path.c_str(), nullptr);
        _exit(127);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    kill(pid, GetParam());
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by the signal instead of stopping cleanly";
    EXPECT_EQ(WEXITSTATUS(status), 0);
    const auto file = store::read_capture_file(path);
    EXPECT_TRUE(file.warnings.empty());
    ASSERT_NE(file.end_record(), nullptr);
    EXPECT_EQ(file.end_record()->at("stop_reason"), "interrupted");
    EXPECT_EQ(file.end_record()->at("pulses"), file.pulses.size());
    EXPECT_GT(file.pulses.size(), 10U);
    EXPECT_TRUE(contains(testing::read_text(out_path), "(interrupted) written to"));
}

INSTANTIATE_TEST_SUITE_P(CtrlCAndTerm, StopSignal, ::testing::Values(SIGINT, SIGTERM));

TEST(DemoCommand, PrintsTheThreeConfigurationsLabelledSimulated) {
    const auto result = run_ppsbench({"demo", "--duration", "10m"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    for (const char* row : {"Stock kernel (simulated)", "PREEMPT_RT (simulated)",
                            "PREEMPT_RT + IRQF_NO_THREAD (simulated)", "SIMULATED"}) {
        EXPECT_TRUE(contains(result.out, row)) << row;
    }
}

// The write-up's figures stand beside the simulated ones, each labelled, and the RMS offset is
// said to need a real chronyd.
TEST(DemoCommand, ShowsThePublishedFiguresBesideItsOwn) {
    const auto result = run_ppsbench({"demo", "--duration", "10m"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    for (const char* text :
         {"The write-up's published figures beside the demo's", "published", "SIMULATED", "2134 ns",
          "6947 ns", "2568 ns", "11 µs", "38 µs", "440 ns", "2468 ns", "199 ns",
          "published: the write-up's figures, measured on hardware",
          "chrony's RMS offset is measured with a real chronyd, never simulated", "--chrony on"}) {
        EXPECT_TRUE(contains(result.out, text)) << text << "\n" << result.out;
    }
}

// The demo's runs are examples/writeup/make.sh's: seeds 1, 2 and 3, so the README, the demo and
// the examples show one simulated σ per configuration.
TEST(DemoCommand, ItsRunsAreTheExamplesRuns) {
    TempDir dir;
    const std::vector<std::pair<const char*, const char*>> runs{
        {"sim:hardirq", "1"}, {"sim:threaded", "2"}, {"sim:nothread", "3"}};
    std::vector<std::string> files;
    for (const auto& [source, seed] : runs) {
        files.push_back(dir.file(std::string(seed) + ".csv"));
        ASSERT_EQ(run_ppsbench({"run", "-q", "-s", source, "--seed", seed, "--duration", "10m",
                                "-o", files.back()})
                      .exit_code,
                  0);
    }
    const auto report =
        run_ppsbench({"report", "--metrics", "sigma,p2p", files[0], files[1], files[2]});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    const auto demo = run_ppsbench({"demo", "--duration", "10m"});
    ASSERT_EQ(demo.exit_code, 0) << demo.err;
    EXPECT_TRUE(contains(demo.out, "(seeds 1, 2, 3)")) << demo.out;
    // Each report row's figures ("2128 ns  10.8 µs") appear in the demo's table.
    std::istringstream rows(report.out);
    int compared = 0;
    for (std::string line; std::getline(rows, line);) {
        if (!line.starts_with("sim:")) {
            continue;  // the header, the rule and the footnotes
        }
        // The figures after the label, each as printed ("2128 ns", "10.8 µs").
        std::istringstream words(line.substr(line.find(")") + 1));
        std::vector<std::string> figures;
        for (std::string number, unit; words >> number >> unit;) {
            figures.push_back(number + " " + unit);
        }
        ASSERT_EQ(figures.size(), 2U) << line;
        for (const auto& figure : figures) {
            EXPECT_TRUE(contains(demo.out, figure)) << figure << "\n" << demo.out;
        }
        ++compared;
    }
    EXPECT_EQ(compared, 3) << report.out;
}

TEST(ReportCommand, ReadsTornFilesAndWarnsOnce) {
    TempDir dir;
    const auto path = dir.file("torn.csv");
    ASSERT_EQ(run_ppsbench({"run", "-s", "sim:hardirq", "--count", "20", "-o", path}).exit_code, 0);
    auto text = testing::read_text(path);
    text = text.substr(0, text.rfind("# end"));  // the crash came before the end record
    testing::write_text(path, text + "21,assert,17672");
    // Warnings go to stderr in every format (issue 12: they went to stdout in text mode and
    // vanished in CSV mode), once each.
    for (const char* format : {"text", "csv", "json", "markdown"}) {
        const auto result = run_ppsbench({"report", "--format", format, path});
        EXPECT_EQ(result.exit_code, 0) << result.err;
        EXPECT_TRUE(contains(result.err, "ppsbench: warning: " + path +
                                             ":24: the last line is "
                                             "incomplete"))
            << format << ": " << result.err;
        EXPECT_TRUE(contains(result.err, "no end record")) << format << ": " << result.err;
        if (std::string(format) != "json") {  // JSON keeps them as data, in "warnings"
            EXPECT_FALSE(contains(result.out, "incomplete")) << format << ": " << result.out;
        }
        const auto first = result.err.find("no end record");
        EXPECT_EQ(result.err.find("no end record", first + 1), std::string::npos) << result.err;
    }
}

TEST(ReportCommand, BadFilesAreOneLineErrors) {
    TempDir dir;
    testing::write_text(dir.file("other.csv"), "time,offset\n1,2\n");
    for (const auto& [file, expected] : std::vector<std::pair<std::string, std::string>>{
             {dir.file("missing.csv"), "cannot open"},
             {dir.file("other.csv"), "other.csv:1: not a ppsbench capture file"}}) {
        const auto result = run_ppsbench({"report", file});
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_TRUE(contains(result.err, expected)) << result.err;
    }
    EXPECT_EQ(run_ppsbench({"report"}).exit_code, 2);
}

}  // namespace
}  // namespace ppsbench
