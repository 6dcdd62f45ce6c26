// SPDX-License-Identifier: GPL-2.0-or-later
// A gate judges only what the data supports (issue 39), continued: bias figures need reference
// pairs, counts need the evidence for them (every edge, the kernel's sequence numbers), ratios
// need runs of one cadence, and the median or RMS of centred residuals is refused as the mean
// is. A refused gate replaces its page, as it replaces its JUnit file.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::read_text;
using testing::run_ppsbench;
using testing::TempDir;
using testing::write_text;

void expect_cannot_judge(const std::vector<std::string>& args, const std::string& reason) {
    const auto result = run_ppsbench(args);
    EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
    EXPECT_TRUE(contains(result.err, reason)) << "wanted " << reason << "\ngot " << result.err;
    // One line for the refusal (warnings about the input may come before it).
    EXPECT_EQ(testing::count_of(result.err, "\n") - testing::count_of(result.err, "warning: "), 1U)
        << result.err;
    EXPECT_FALSE(contains(result.out, "PASS")) << result.out;
}

// The first `keep` pulse lines of a capture, its comment lines (meta, end record) kept.
void cut_to(const std::string& path, int keep) {
    std::istringstream in(read_text(path));
    std::string text;
    std::string line;
    int pulses = 0;
    while (std::getline(in, line)) {
        const bool pulse = !line.empty() && line[0] >= '0' && line[0] <= '9';
        if (!pulse || ++pulses <= keep) {
            text += line + "\n";
        }
    }
    write_text(path, text);
}

// A two-source run of 300 edges against sim:reference: the PPS path's file.
std::string with_reference(const TempDir& dir, const std::string& name, const std::string& late) {
    const auto run =
        run_ppsbench({"run", "-q", "--source", "sim:hardirq,late=" + late, "--source",
                      "sim:reference", "--count", "300", "-o", dir.file(name + ".csv")});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return dir.file(name + "-1.csv");
}

// --min-pulses counted the path's pulses: a reference that saw 20 of 300 edges gave a bias
// limit "judged" on 20 pairs. Metamorphic: the same run with its reference cut below the
// minimum is refused, at the minimum it is judged as before.
TEST(GateCountsEvidence, BiasFiguresNeedAsManyReferencePairsAsMinPulses) {
    TempDir dir;
    const auto late = with_reference(dir, "late", "4us");
    const std::vector<std::string> limit{"--max", "bias_median=10us", "--min-pulses", "200"};
    auto args = std::vector<std::string>{"gate", late};
    args.insert(args.end(), limit.begin(), limit.end());
    const auto whole = run_ppsbench(args);
    EXPECT_EQ(whole.exit_code, 0) << whole.out << whole.err;

    cut_to(dir.file("late-2.csv"), 200);
    const auto at_minimum = run_ppsbench(args);
    EXPECT_EQ(at_minimum.exit_code, 0) << at_minimum.out << at_minimum.err;

    cut_to(dir.file("late-2.csv"), 150);
    expect_cannot_judge(args, "has 150 pairs of edges with its reference, fewer than the 200");

    // The growth needs them in both runs.
    const auto base = with_reference(dir, "base", "4us");
    expect_cannot_judge(
        {"gate", "--baseline", base, late, "--max-bias-growth", "2us", "--min-pulses", "200"},
        "--max-bias-growth: " + late + " has 150 pairs");
}

std::string peerstats_capture(const TempDir& dir, int samples) {
    std::string lines;
    for (int i = 0; i < samples; ++i) {
        // One sample every 16 s, then two hours without one (7200 s) halfway.
        const int t = 3601 + 16 * i + (i >= samples / 2 ? 7200 : 0);
        lines += "61000 " + std::to_string(t) + ".000 127.127.22.0 9014 " +
                 (i % 2 == 0 ? "-0.000000290" : "-0.000000300") +
                 " 0.000000000 0.000000954 0.000001907\n";
    }
    write_text(dir.file("peerstats"), lines);
    const auto import = run_ppsbench(
        {"import", "ntp-peerstats", dir.file("peerstats"), "-o", dir.file("peer.csv")});
    EXPECT_EQ(import.exit_code, 0) << import.err;
    return dir.file("peer.csv");
}

// ntpd wrote no peerstats line for two hours: `--max-missed 0` passed on main. Missed pulses of
// a sampled log, and unseen events and clock steps of made-up sequence numbers, are refused;
// the figures it does hold are still judged.
TEST(GateCountsEvidence, CountsNeedTheEvidenceForThem) {
    TempDir dir;
    const auto peer = peerstats_capture(dir, 400);
    expect_cannot_judge({"gate", peer, "--max-missed", "0"}, "peer.csv is a sampled log");
    expect_cannot_judge({"gate", peer, "--max", "unseen=0"}, "sequence numbers made up");
    expect_cannot_judge({"gate", peer, "--max", "clock_steps=0"}, "sequence numbers made up");
    EXPECT_EQ(run_ppsbench({"gate", peer, "--max-sigma", "1us"}).exit_code, 0);
    // A saved summary says the same: its cadence and the sequence numbers' kind are kept.
    const auto saved = run_ppsbench({"report", "--format", "json", peer});
    ASSERT_EQ(saved.exit_code, 0) << saved.err;
    EXPECT_EQ(nlohmann::json::parse(saved.out)["runs"][0]["sequences"], "synthetic");
    write_text(dir.file("peer.json"), saved.out);
    expect_cannot_judge({"gate", dir.file("peer.json"), "--max-missed", "0"}, "is a sampled log");
    expect_cannot_judge({"gate", dir.file("peer.json"), "--max", "unseen=0"}, "sequence numbers");

    // A capture of every edge with the kernel's numbers is judged on all three.
    const auto stock = dir.file("stock.csv");
    ASSERT_EQ(
        run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "300", "-o", stock}).exit_code,
        0);
    EXPECT_EQ(run_ppsbench({"gate", stock, "--max-missed", "0", "--max", "unseen=0", "--max",
                            "clock_steps=0"})
                  .exit_code,
              0);
}

// A peerstats import against a capture of every edge gave "×0.70 better" and [pass]: σ of one
// filtered sample per poll is not σ of every edge.
TEST(GateCountsEvidence, RatiosOnlyBetweenRunsOfOneCadence) {
    TempDir dir;
    const auto peer = peerstats_capture(dir, 400);
    const auto stock = dir.file("stock.csv");
    ASSERT_EQ(
        run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "300", "-o", stock}).exit_code,
        0);
    expect_cannot_judge({"gate", "--baseline", stock, peer, "--max-ratio", "1.25"},
                        "--max-ratio: the baseline " + stock + " is every-edge, the current run " +
                            peer + " is sampled");
    // Swapping the runs does not make them comparable.
    expect_cannot_judge({"gate", "--baseline", peer, stock, "--max-ratio", "1.25"}, "is sampled");
}

// The median and RMS of detrended residuals are near 0 and σ by construction, as their mean is
// 0: refused on a free-running clock as `--max mean` is, judged on a disciplined one.
TEST(GateCountsEvidence, MedianAndRmsOfCentredResidualsAreRefused) {
    TempDir dir;
    const auto free = dir.file("free.csv");
    ASSERT_EQ(
        run_ppsbench({"run", "-q", "-s", "sim:hardirq,freq=100", "--count", "300", "-o", free})
            .exit_code,
        0);
    for (const char* limit : {"mean=1us", "median=1us", "rms=100us"}) {
        SCOPED_TRACE(limit);
        expect_cannot_judge({"gate", free, "--max", limit}, "its clock runs free");
    }
    expect_cannot_judge({"gate", free, "--min", "median=-1us"}, "whose mean is 0 by construction");
    const auto stock = dir.file("stock.csv");
    ASSERT_EQ(
        run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "300", "-o", stock}).exit_code,
        0);
    EXPECT_EQ(run_ppsbench({"gate", stock, "--max", "median=1us", "--max", "rms=10us"}).exit_code,
              0);
}

// `gate --html gate.html --force` that cannot judge left yesterday's PASS page in place.
TEST(GateCountsEvidence, ARefusedGateReplacesItsPage) {
    TempDir dir;
    const auto stock = dir.file("stock.csv");
    ASSERT_EQ(
        run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "300", "-o", stock}).exit_code,
        0);
    const auto page = dir.file("gate.html");
    ASSERT_EQ(run_ppsbench({"gate", stock, "--max-sigma", "10us", "--html", page}).exit_code, 0);
    EXPECT_TRUE(contains(read_text(page), "PASS"));
    const auto refused = run_ppsbench(
        {"gate", stock, "--max-sigma", "10us", "--min-pulses", "1000", "--html", page, "--force"});
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    const auto html = read_text(page);
    EXPECT_FALSE(contains(html, "PASS")) << html;
    EXPECT_TRUE(contains(html, "NOT JUDGED")) << html;
    EXPECT_TRUE(contains(html, "fewer than the 1000")) << html;
}

}  // namespace
}  // namespace ppsbench
