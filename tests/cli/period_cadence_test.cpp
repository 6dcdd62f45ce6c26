// SPDX-License-Identifier: GPL-2.0-or-later
// Period, cadence and phase as separate facts (issue 22): each case of the list, run as
// a user would. A period the pulses contradict is refused naming both values and the fix; a
// clock step of any size is one step; heavy loss and sparse samples keep their period.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::read_text;
using testing::run_ppsbench;
using testing::TempDir;
using testing::write_text;

std::string capture_with(const TempDir& dir, const std::string& name,
                         const std::vector<std::string>& extra) {
    const auto path = dir.file(name);
    std::vector<std::string> args = {"run", "-o", path};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto result = run_ppsbench(args);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return path;
}

nlohmann::json first_run_of_report(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"report", "--format", "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto result = run_ppsbench(args);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return nlohmann::json::parse(result.out).at("runs").at(0);
}

std::string with_period_ns(const std::string& text, const std::string& period_ns) {
    return std::regex_replace(text, std::regex("\"period_ns\":[0-9]+"),
                              "\"period_ns\":" + period_ns);
}

// main: pulses 2 s apart recorded as 1 s gave σ 0 ns and "[pass]"; a period_ns of 1000 too.
TEST(PeriodCadence, AWholeMultipleOrFractionOfTheRecordedPeriodIsRefused) {
    TempDir dir;
    const auto two =
        capture_with(dir, "two.csv", {"-s", "sim:hardirq", "--period", "2s", "--count", "300"});
    write_text(dir.file("as1s.csv"), with_period_ns(read_text(two), "1000000000"));
    const auto gate = run_ppsbench({"gate", dir.file("as1s.csv"), "--max-sigma", "1us"});
    EXPECT_EQ(gate.exit_code, 2) << gate.out;
    EXPECT_TRUE(contains(gate.err, "the assert pulses are 2s apart")) << gate.err;
    EXPECT_TRUE(contains(gate.err, "recorded period of 1s")) << gate.err;
    EXPECT_TRUE(contains(gate.err, "analyse with --period 2s")) << gate.err;
    EXPECT_FALSE(contains(gate.out, "[pass]"));
    const auto one = capture_with(dir, "one.csv", {"-s", "sim:hardirq", "--count", "300"});
    write_text(dir.file("as1us.csv"), with_period_ns(read_text(one), "1000"));
    EXPECT_EQ(run_ppsbench({"gate", dir.file("as1us.csv"), "--max-sigma", "1us"}).exit_code, 2);
}

// main: "run -s replay:stock.csv --period 100ms" wrote a capture that gated σ ratio 0.000.
TEST(PeriodCadence, AReplayKeepsItsRecordedPeriod) {
    TempDir dir;
    const auto stock = capture_with(dir, "stock.csv", {"-s", "sim:hardirq", "--count", "100"});
    const auto wrong = run_ppsbench(
        {"run", "-s", "replay:" + stock, "--period", "100ms", "-o", dir.file("rp.csv")});
    EXPECT_EQ(wrong.exit_code, 2);
    EXPECT_TRUE(contains(wrong.err, "records a period of 1s, and a replay keeps it")) << wrong.err;
    const auto replay = capture_with(dir, "replay.csv", {"-s", "replay:" + stock});
    EXPECT_TRUE(contains(read_text(replay), "\"period_ns\":1000000000"));
    EXPECT_EQ(run_ppsbench({"gate", "--baseline", stock, replay, "--max-ratio", "1.25"}).exit_code,
              0);
}

// main: --period 1.04s gave mean −60 s, p2p 120 s and 115 fake clock steps, exit 0.
TEST(PeriodCadence, APeriodOffByMoreThanAnyClockIsRefusedAndASlightlyOffOneIsFreeRunning) {
    TempDir dir;
    const auto run = capture_with(dir, "run.csv", {"-s", "sim:hardirq", "--count", "600"});
    const auto off = run_ppsbench({"report", "--period", "1040ms", run});
    EXPECT_EQ(off.exit_code, 2);
    EXPECT_TRUE(contains(off.err, "the assert pulses are 1s apart")) << off.err;
    EXPECT_TRUE(contains(off.err, "contradicts the --period of 1.04s")) << off.err;
    EXPECT_TRUE(contains(off.err, "use --period 1s or leave --period out")) << off.err;
    // 1.0005 s: within what a free crystal could be off by; the residuals are the headline.
    const auto slightly = first_run_of_report({"--period", "1000500us", run});
    const auto right = first_run_of_report({run});
    EXPECT_TRUE(slightly.at("offset_ns").is_null());
    EXPECT_NEAR(slightly.at("detrended_ns").at("stddev").get<double>(),
                right.at("detrended_ns").at("stddev").get<double>(), 1.0);
    EXPECT_TRUE(slightly.at("clock_steps").empty());
}

// main: seed 1 gave σ 318 ms, offsets down to −799 ms and the step as "+299 ms"; seed 5 four
// steps. −700 ms and +1 day were right and stay so.
TEST(PeriodCadence, AClockStepOfAnySizeIsOneStep) {
    TempDir dir;
    for (const std::string step : {"-500ms", "500ms", "-700ms", "86400s", "-499ms", "-501ms"}) {
        for (const std::string seed : {"1", "5"}) {
            SCOPED_TRACE("step " + step + ", seed " + seed);
            const auto path = capture_with(dir, "step" + step + seed + ".csv",
                                           {"-s", "sim:hardirq,step=" + step + ",step-at=100",
                                            "--count", "300", "--seed", seed});
            const auto r = first_run_of_report({path});
            ASSERT_EQ(r.at("clock_steps").size(), 1u);
            EXPECT_LT(r.at("offset_ns").at("stddev").get<double>(), 3000);
            EXPECT_EQ(r.at("outliers").get<int>(), 0);
        }
    }
}

// main: "recorded period 1s does not match … 2s apart", then σ 1767 ms and "892 … kernel
// events never read" for following the advice.
TEST(PeriodCadence, HeavyLossKeepsThePeriod) {
    TempDir dir;
    for (const std::string loss : {"0.5", "0.9"}) {
        const auto path = capture_with(dir, "loss" + loss + ".csv",
                                       {"-s", "sim:threaded,missed=" + loss, "--count", "1000"});
        const auto report = run_ppsbench({"report", path});
        EXPECT_EQ(report.exit_code, 0) << report.err;
        EXPECT_FALSE(contains(report.err, "does not match")) << report.err;
        EXPECT_FALSE(contains(report.err, "never read")) << report.err;
        const auto r = first_run_of_report({"--period", "1s", path});
        EXPECT_LT(r.at("offset_ns").at("stddev").get<double>(), 8000);
        EXPECT_EQ(r.at("unseen_events").get<int>(), 0);
        EXPECT_GT(r.at("missed_pulses").get<int>(), 500);
        EXPECT_EQ(run_ppsbench({"report", "--period", "2s", path}).exit_code, 2);
    }
}

// main: peerstats every 8 s: "use --period 8s", which then gave mean +3000 ms (true +295 ns).
TEST(PeriodCadence, SparseSamplesFoldOnTheSecondWithSampledCadence) {
    TempDir dir;
    std::string lines;
    for (int i = 0; i < 400; ++i) {
        // ntpd's offset is minus the pulse's: −295 ns, a little jitter.
        lines += "61000 " + std::to_string(3601 + 8 * i) + ".000 127.127.22.0 9014 " +
                 (i % 2 == 0 ? "-0.000000290" : "-0.000000300") +
                 " 0.000000000 0.000000954 0.000001907\n";
    }
    write_text(dir.file("peerstats"), lines);
    const auto import = run_ppsbench(
        {"import", "ntp-peerstats", dir.file("peerstats"), "-o", dir.file("peer.csv")});
    ASSERT_EQ(import.exit_code, 0) << import.err;
    EXPECT_TRUE(contains(read_text(dir.file("peer.csv")), "\"cadence\":\"sampled\""));
    const auto report = run_ppsbench({"report", dir.file("peer.csv")});
    EXPECT_EQ(report.exit_code, 0) << report.err;
    EXPECT_FALSE(contains(report.err, "never read")) << report.err;
    EXPECT_FALSE(contains(report.err, "--period 8s")) << report.err;
    const auto r = first_run_of_report({dir.file("peer.csv")});
    EXPECT_NEAR(r.at("offset_ns").at("mean").get<double>(), 295, 1);
    EXPECT_EQ(r.at("missed_pulses").get<int>(), 0);
    EXPECT_EQ(r.at("unseen_events").get<int>(), 0);
    // Folding on the poll would measure the phase from multiples of 8 s since 1970.
    const auto poll = run_ppsbench({"report", "--period", "8s", dir.file("peer.csv")});
    EXPECT_EQ(poll.exit_code, 2);
    EXPECT_TRUE(contains(poll.err, "holds samples (one per poll)")) << poll.err;
}

// A --period 900 ppm off (under the 1000 ppm bound: a free crystal's error) over 3000 pulses:
// the phase runs through three periods. main folded it into a sawtooth (σ 295 ms, mean +52 ms,
// no note); it is a free-running clock whose residuals are the capture's jitter.
TEST(PeriodCadence, APeriodSlightlyOffOverALongRunIsAnalysedAsFreeRunning) {
    TempDir dir;
    const auto stock = capture_with(dir, "stock.csv", {"-s", "sim:hardirq", "--count", "3000"});
    const double sigma = first_run_of_report({stock}).at("offset_ns").at("stddev").get<double>();
    for (const char* period : {"1.0009s", "0.9991s", "1.0005s"}) {
        SCOPED_TRACE(period);
        const auto r = first_run_of_report({"--period", period, stock});
        EXPECT_TRUE(r.at("free_running").get<bool>());
        EXPECT_TRUE(r.at("offset_ns").is_null());
        EXPECT_NEAR(r.at("detrended_ns").at("stddev").get<double>(), sigma, 0.01 * sigma);
        EXPECT_EQ(r.at("clock_steps").size(), 0u);
    }
}

// A free-running clock's headline is its detrended residuals, whose mean is 0 by construction:
// main passed `--max mean=1us` on a clock drifting 100 ppm. The limit is refused (exit 2), for
// the capture and its saved summary; σ is still judged.
TEST(PeriodCadence, AMeanLimitOnAFreeRunningClockIsRefused) {
    TempDir dir;
    const auto free =
        capture_with(dir, "free.csv", {"-s", "sim:hardirq,freq=100", "--count", "300"});
    const auto mean = run_ppsbench({"gate", free, "--max", "mean=1us"});
    EXPECT_EQ(mean.exit_code, 2) << mean.out;
    EXPECT_TRUE(contains(mean.err, "its clock runs free")) << mean.err;
    EXPECT_TRUE(contains(mean.err, "whose mean is 0 by construction")) << mean.err;
    EXPECT_FALSE(contains(mean.out, "[pass]"));
    const auto saved = run_ppsbench({"report", "--format", "json", free});
    ASSERT_EQ(saved.exit_code, 0) << saved.err;
    write_text(dir.file("free.json"), saved.out);
    EXPECT_EQ(run_ppsbench({"gate", dir.file("free.json"), "--max", "mean=1us"}).exit_code, 2);
    EXPECT_EQ(run_ppsbench({"gate", free, "--max-sigma", "3us"}).exit_code, 0);
    // A disciplined clock's mean is still gated.
    const auto stock = capture_with(dir, "stock.csv", {"-s", "sim:hardirq", "--count", "300"});
    EXPECT_EQ(run_ppsbench({"gate", stock, "--max", "mean=1us"}).exit_code, 0);
}

// A peerstats log, one sample every 8 s: its stability figures are left out because a sampled
// log has one sample per poll, not because of a clock step or a gap (main said "a clock step or
// a huge gap"). The saved summary says it was sampled, and so does the summary read back.
TEST(PeriodCadence, ASampledLogSaysWhyItHasNoStabilityFigures) {
    TempDir dir;
    std::string lines;
    for (int i = 0; i < 2000; ++i) {
        lines += "61000 " + std::to_string(3601 + 8 * i) + ".000 127.127.22.0 9014 " +
                 (i % 3 == 0 ? "-0.000000290" : "-0.000000300") +
                 " 0.000000000 0.000000954 0.000001907\n";
    }
    write_text(dir.file("peerstats"), lines);
    ASSERT_EQ(
        run_ppsbench({"import", "ntp-peerstats", dir.file("peerstats"), "-o", dir.file("peer.csv")})
            .exit_code,
        0);
    const auto report = run_ppsbench({"report", dir.file("peer.csv")});
    EXPECT_EQ(report.exit_code, 0) << report.err;
    EXPECT_FALSE(contains(report.err, "clock step or a huge gap")) << report.err;
    EXPECT_TRUE(contains(report.err,
                         "need one sample per period and a sampled log holds one per "
                         "poll, so they are left out"))
        << report.err;
    const auto saved = run_ppsbench({"report", "--format", "json", dir.file("peer.csv")});
    ASSERT_EQ(saved.exit_code, 0) << saved.err;
    const auto run = nlohmann::json::parse(saved.out).at("runs").at(0);
    EXPECT_EQ(run.at("cadence"), "sampled");
    EXPECT_EQ(run.at("free_running"), false);
    EXPECT_TRUE(run.at("stability").is_null());
    write_text(dir.file("peer.json"), saved.out);
    const auto back = first_run_of_report({dir.file("peer.json")});
    EXPECT_EQ(back.at("cadence"), "sampled");
    EXPECT_EQ(back.at("free_running"), false);
}

}  // namespace
}  // namespace ppsbench
