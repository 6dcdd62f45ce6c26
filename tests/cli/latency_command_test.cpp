// SPDX-License-Identifier: GPL-2.0-or-later
// `ppsbench latency` and dual-path `ppsbench run` through the built binary. No GPIO chip or PPS
// device exists here, so latency is exercised up to opening its lines (the lab runs it for
// real); the dual path runs end to end on two simulated sources.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli.hpp"
#include "ppsbench/analysis/latency_runs.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

// One line on stderr, starting "ppsbench COMMAND: " (run or latency), exit status 2.
void expect_usage_error(const testing::CommandResult& r, const std::string& part) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_TRUE(r.err.starts_with("ppsbench latency: ") || r.err.starts_with("ppsbench run: "))
        << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(contains(r.err, part)) << r.err;
}

std::size_t file_count(const TempDir& dir) {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir.path()),
                                                  std::filesystem::directory_iterator()));
}

TEST(LatencyCommand, IsListedAndExplainsItsOptions) {
    EXPECT_TRUE(contains(run_ppsbench({"--help"}).out, "latency"));
    const auto help = run_ppsbench({"latency", "--help"});
    EXPECT_EQ(help.exit_code, 0);
    for (const char* option : {"--drive", "--sense", "--interval", "--count", "--duration",
                               "--output", "--label", "--rt-priority", "--cpu", "--mlock"}) {
        EXPECT_TRUE(contains(help.out, option)) << option;
    }
}

TEST(LatencyCommand, MissingDriveChipNamesItAndCreatesNothing) {
    TempDir dir;
    const auto out = dir.file("lat.csv");
    expect_usage_error(run_ppsbench({"latency", "--drive", "gpiochip97:17", "--sense",
                                     "gpio:gpiochip97:27", "--count", "5", "-o", out}),
                       "--drive gpiochip97:17: no such GPIO chip 'gpiochip97'; list chips with "
                       "'gpiodetect'");
    EXPECT_EQ(file_count(dir), 0U);
}

TEST(LatencyCommand, BadOptionsAreUsageErrors) {
    expect_usage_error(
        run_ppsbench({"latency", "--drive", "gpiochip0", "--sense", "gpio:gpiochip0:27"}),
        "--drive 'gpiochip0': expected CHIP:LINE, e.g. --drive gpiochip0:17");
    expect_usage_error(run_ppsbench({"latency", "--drive", "gpiochip0:17", "--sense",
                                     "gpio:gpiochip0:27", "--interval", "0"}),
                       "--interval: '0' is not a duration");
    expect_usage_error(run_ppsbench({"latency", "--drive", "gpiochip0:17", "--sense",
                                     "gpio:gpiochip0:27", "--count", "5", "--duration", "1s"}),
                       "give --duration or --count, not both");
    expect_usage_error(
        run_ppsbench({"latency", "--drive", "gpiochip0:17", "--sense", "sim:hardirq"}),
        "must be gpio:CHIP:LINE or pps:/dev/ppsN");
    expect_usage_error(run_ppsbench({"latency", "--sense", "gpio:gpiochip0:27"}),
                       "give --drive CHIP:LINE and --sense");
    expect_usage_error(run_ppsbench({"latency", "--drive", "gpiochip0:17", "--sense",
                                     "gpio:gpiochip0:27", "--edge", "sideways"}),
                       "--edge sideways");
}

TEST(DualRun, TwoSimulatedPathsArePairedEdgeByEdge) {
    TempDir dir;
    const auto out = dir.file("dual.csv");
    const auto r =
        run_ppsbench({"run", "--source", "sim:hardirq,missed=0.01", "--source", "sim:threaded",
                      "--seed", "1", "--duration", "10m", "-o", out, "--label", "dual"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out,
                         "Two paths, one edge: A = dual (sim:hardirq,missed=0.01), B = "
                         "dual (sim:threaded)"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "B − A per edge")) << r.out;
    EXPECT_TRUE(contains(r.out, "pairs")) << r.out;
    EXPECT_TRUE(contains(r.out, "(duration) written to " + dir.file("dual-1.csv")));
    EXPECT_TRUE(contains(r.out, "600 pulses (duration) written to " + dir.file("dual-2.csv")));

    // Each path is an ordinary capture file, linked to its peer.
    const auto a = store::read_capture_file(dir.file("dual-1.csv"));
    const auto b = store::read_capture_file(dir.file("dual-2.csv"));
    EXPECT_LT(a.pulses.size(), 600U);  // missed=0.01
    EXPECT_EQ(b.pulses.size(), 600U);
    EXPECT_EQ(a.meta.at("dual").at("path"), "A");
    EXPECT_EQ(b.meta.at("dual").at("peer_source"), "sim:hardirq,missed=0.01");
    EXPECT_TRUE(a.extra_columns.empty()) << "realtime paths need no offset column";
    ASSERT_NE(a.end_record(), nullptr);

    // The pairing from the files alone: over the same 10 minutes path A missed some edges and
    // B saw all, so every A pulse pairs and exactly A's misses stay unpaired on B's side.
    const auto dual = analysis::summarize_dual(a, b);
    EXPECT_EQ(dual.pairs, a.pulses.size());
    EXPECT_EQ(dual.unpaired_a, 0U);
    EXPECT_EQ(dual.unpaired_b, 600U - a.pulses.size());
    EXPECT_LT(std::abs(dual.difference.summary.mean), 2000.0);

    EXPECT_EQ(run_ppsbench({"report", dir.file("dual-1.csv"), dir.file("dual-2.csv")}).exit_code,
              0);
}

TEST(DualRun, OneSourceFailingToOpenLeavesNoFiles) {
    TempDir dir;
    expect_usage_error(run_ppsbench({"run", "--source", "sim:hardirq", "--source", "pps:/dev/pps97",
                                     "--count", "5", "-o", dir.file("d.csv")}),
                       "/dev/pps97: no such PPS device");
    expect_usage_error(run_ppsbench({"run", "-s", "gpio:gpiochip97:3", "-s", "sim:hardirq",
                                     "--count", "5", "-o", dir.file("d.csv")}),
                       "no such GPIO chip");
    EXPECT_EQ(file_count(dir), 0U);
}

TEST(DualRun, AtMostTwoSourcesAndOneSourceIsUnchanged) {
    TempDir dir;
    expect_usage_error(run_ppsbench({"run", "-s", "sim:hardirq", "-s", "sim:threaded", "-s",
                                     "sim:nothread", "--count", "5"}),
                       "3 --source options");
    const auto one =
        run_ppsbench({"run", "-s", "sim:hardirq", "--count", "5", "-o", dir.file("one.csv")});
    ASSERT_EQ(one.exit_code, 0) << one.err;
    EXPECT_FALSE(contains(one.out, "Two paths"));
    EXPECT_TRUE(contains(one.out, "5 pulses (count) written to " + dir.file("one.csv")));
}

}  // namespace
}  // namespace ppsbench
