// SPDX-License-Identifier: GPL-2.0-or-later
// A CI gate must never pass on data it cannot judge (issue 12): too few pulses, a figure that
// is not a number, a baseline without the figure a limit needs. Each is exit 2 with the reason
// on stderr, never "pass".
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

std::string seeded_capture(const TempDir& dir, int seed, int count) {
    const auto path =
        dir.file("run-" + std::to_string(seed) + "-" + std::to_string(count) + ".csv");
    const auto result = run_ppsbench({"run", "-s", "sim:hardirq", "--seed", std::to_string(seed),
                                      "--count", std::to_string(count), "-q", "-o", path});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return path;
}

void expect_refused(const std::vector<std::string>& args, const std::string& reason) {
    const auto result = run_ppsbench(args);
    EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
    EXPECT_TRUE(contains(result.err, reason)) << "wanted " << reason << "\ngot " << result.err;
    EXPECT_FALSE(contains(result.out, "PASS")) << result.out;
}

// On main these printed "ratio nan, 95 % CI nan–nan … pass" and exited 0.
TEST(GateRefuses, ACurrentRunOfOnePulse) {
    TempDir dir;
    const auto stock = seeded_capture(dir, 1, 600);
    const auto one = seeded_capture(dir, 2, 1);
    expect_refused({"gate", "--baseline", stock, one, "--max-ratio", "1.25"},
                   "the current run " + one + " has 1 pulse, fewer than the 100");
    expect_refused({"gate", one, "--max-sigma", "3us"}, "has 1 pulse");
    expect_refused({"gate", one, "--max-missed", "0"}, "has 1 pulse");
}

TEST(GateRefuses, ABaselineOfOnePulse) {
    TempDir dir;
    const auto one = seeded_capture(dir, 1, 1);
    const auto stock = seeded_capture(dir, 2, 600);
    expect_refused({"gate", "--baseline", one, stock, "--max-ratio", "1.25"},
                   "the baseline run " + one + " has 1 pulse");
}

// Two pulses each gave "above 1.25 but not statistically supported: pass".
TEST(GateRefuses, TwoPulsesAsNotEnoughToJudge) {
    TempDir dir;
    const auto a = seeded_capture(dir, 1, 2);
    const auto b = seeded_capture(dir, 2, 2);
    expect_refused({"gate", "--baseline", a, b, "--max-ratio", "1.25"}, "has 2 pulses");
}

// --min-pulses moves the bar, but not below what a σ needs.
TEST(GateRefuses, FewerPulsesThanMinPulsesAndAcceptsEnough) {
    TempDir dir;
    const auto a = seeded_capture(dir, 1, 50);
    const auto b = seeded_capture(dir, 2, 50);
    expect_refused({"gate", "--baseline", a, b, "--max-ratio", "1.25", "--min-pulses", "60"},
                   "fewer than the 60");
    const auto ok =
        run_ppsbench({"gate", "--baseline", a, b, "--max-ratio", "1.25", "--min-pulses", "40"});
    EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
    expect_refused({"gate", b, "--max-sigma", "3us", "--min-pulses", "1"},
                   "--min-pulses 1: use a whole number from 2");
}

// A saved summary whose σ is null (edited, or from a run without pulses) is not a baseline.
TEST(GateRefuses, ABaselineSummaryWithoutSigma) {
    TempDir dir;
    const auto stock = seeded_capture(dir, 1, 600);
    const auto current = seeded_capture(dir, 2, 600);
    auto summary = nlohmann::json::parse(run_ppsbench({"report", "--format", "json", stock}).out);
    summary["runs"][0]["offset_ns"]["stddev"] = nullptr;
    testing::write_text(dir.file("base.json"), summary.dump());
    expect_refused({"gate", "--baseline", dir.file("base.json"), current, "--max-ratio", "1.25"},
                   "has no σ");
    summary["runs"][0]["pulses"] = 0;
    testing::write_text(dir.file("empty.json"), summary.dump());
    expect_refused({"gate", "--baseline", dir.file("empty.json"), current, "--max-ratio", "1.25"},
                   "has 0 pulses");
}

// Found with fuzz/report_document_fuzz (hand-made inputs run through it): a damaged baseline (a run
// that is not an object, a label that is a number, a negative or huge pulse count) ended in an
// internal error or undefined behaviour; it is bad input naming the file.
TEST(GateRefuses, ADamagedBaselineSummary) {
    TempDir dir;
    const auto stock = seeded_capture(dir, 1, 600);
    const auto current = seeded_capture(dir, 2, 600);
    const auto summary =
        nlohmann::json::parse(run_ppsbench({"report", "--format", "json", stock}).out);
    const auto refused = [&](nlohmann::json document, const std::string& message) {
        testing::write_text(dir.file("base.json"), document.dump());
        expect_refused(
            {"gate", "--baseline", dir.file("base.json"), current, "--max-ratio", "1.25"},
            dir.file("base.json") + ": " + message);
    };
    refused(nlohmann::json{{"schema", "ppsbench.report/1"}, {"runs", {1}}},
            "a run in \"runs\" is number, not an object");
    refused(nlohmann::json{{"schema", 5}, {"runs", nlohmann::json::array()}},
            "not a ppsbench summary");
    auto bad = summary;
    bad["runs"][0]["label"] = 5;
    refused(bad, "\"label\" is number, not a string");
    bad = summary;
    bad["runs"][0]["pulses"] = -5;
    refused(bad, "\"pulses\" is -5, not a count");
    bad = summary;
    bad["runs"][0]["pulses"] = 1e35;
    refused(bad, "\"pulses\" is 1e+35, not a count");
}

// Limits are checked strictly: a negative count is not 2⁶⁴−1, a time needs its unit.
TEST(GateRefuses, NegativeCountsAndTimesWithoutUnit) {
    TempDir dir;
    const auto run = seeded_capture(dir, 1, 600);
    expect_refused({"gate", run, "--max-missed", "-1"},
                   "--max-missed -1: use a whole number from 0 to 1000000000");
    expect_refused({"gate", run, "--max-sigma", "3"}, "--max-sigma: '3' has no unit");
    expect_refused({"gate", run, "--max-p2p", "20"}, "--max-p2p: '20' has no unit");
    expect_refused({"gate", "--baseline", run, run, "--max-ratio", "inf"}, "--max-ratio");
    const auto ok = run_ppsbench({"gate", run, "--max-sigma", "3us", "--max-missed", "0"});
    EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
    EXPECT_TRUE(contains(ok.out, "[pass] σ ≤ 3000 ns")) << ok.out;
}

}  // namespace
}  // namespace ppsbench
