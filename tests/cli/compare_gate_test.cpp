// SPDX-License-Identifier: GPL-2.0-or-later
// compare and gate end to end on simulated runs: what must pass, what must fail, and that the
// machine-readable outputs parse with real parsers (xmllint, rsvg-convert, prometheus_client).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

std::string model_capture(const TempDir& dir, const std::string& model, int seed, int count = 600) {
    const auto path = dir.file(model + "-" + std::to_string(seed) + ".csv");
    const auto result = run_ppsbench({"run", "-s", "sim:" + model, "--seed", std::to_string(seed),
                                      "--count", std::to_string(count), "--label",
                                      model + " " + std::to_string(seed), "-o", path});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return path;
}

// The gate must not flake: twenty pairs of runs of the same kernel model with different seeds
// all pass a 5 % relative limit, because a limit fails only when the interval's lower bound is
// above it.
TEST(Gate, SameKernelDifferentSeedsNeverFails) {
    TempDir dir;
    for (int seed = 1; seed <= 20; ++seed) {
        const auto baseline = model_capture(dir, "hardirq", 100 + seed);
        const auto current = model_capture(dir, "hardirq", 200 + seed);
        const auto result =
            run_ppsbench({"gate", "--baseline", baseline, current, "--max-ratio", "1.05"});
        EXPECT_EQ(result.exit_code, 0) << "seed " << seed << "\n" << result.out;
    }
}

// ... and a force-threaded PPS handler fails it every time, even on 10 minutes of pulses.
TEST(Gate, ThreadedHandlerAgainstHardIrqAlwaysFails) {
    TempDir dir;
    for (int seed = 1; seed <= 5; ++seed) {
        const auto baseline = model_capture(dir, "hardirq", 300 + seed);
        const auto current = model_capture(dir, "threaded", 400 + seed);
        const auto result =
            run_ppsbench({"gate", "--baseline", baseline, current, "--max-ratio", "1.25"});
        EXPECT_EQ(result.exit_code, 1) << result.out;
        EXPECT_TRUE(contains(result.out, "[FAIL] σ ratio")) << result.out;
        EXPECT_TRUE(contains(result.out, "gate: REGRESSION")) << result.out;
    }
}

TEST(Gate, AbsoluteLimitsAndJunitXml) {
    TempDir dir;
    const auto current = model_capture(dir, "threaded", 7);
    const auto junit = dir.file("gate.xml");
    const auto result = run_ppsbench({"gate", current, "--max-sigma", "3us", "--max-p2p", "100us",
                                      "--max-missed", "0", "--junit", junit});
    EXPECT_EQ(result.exit_code, 1) << result.out;
    EXPECT_TRUE(contains(result.out, "[FAIL] σ ≤ 3000 ns: σ")) << result.out;
    EXPECT_TRUE(contains(result.out, "[pass] peak-to-peak ≤ 100 µs")) << result.out;
    EXPECT_TRUE(contains(result.out, "[pass] missed pulses ≤ 0")) << result.out;
    const auto xml = testing::run_program({"xmllint", "--noout", junit});
    EXPECT_EQ(xml.exit_code, 0) << xml.err;
    const auto failures =
        testing::run_program({"xmllint", "--xpath", "string(/testsuites/@failures)", junit});
    EXPECT_EQ(failures.out.substr(0, 1), "1");
    const auto names = testing::run_program({"xmllint", "--xpath", "count(//testcase)", junit});
    EXPECT_EQ(names.out.substr(0, 1), "3");
}

// A file name may hold any bytes. The JUnit report names the file it could not judge, and
// stays XML that a CI server can read: the bytes are shown as \xNN, not written raw.
TEST(Gate, JunitXmlStaysWellFormedWhateverTheFileIsCalled) {
    TempDir dir;
    const auto short_run = model_capture(dir, "threaded", 9, 5);
    const auto hostile = dir.file("run\x01\xff.csv");
    ASSERT_EQ(::rename(short_run.c_str(), hostile.c_str()), 0);
    const auto junit = dir.file("gate.xml");
    const auto result = run_ppsbench({"gate", hostile, "--max-sigma", "3us", "--junit", junit});
    EXPECT_EQ(result.exit_code, 2) << "five pulses cannot be judged\n" << result.err;
    const auto xml = testing::run_program({"xmllint", "--noout", junit});
    EXPECT_EQ(xml.exit_code, 0) << xml.err;
    const auto message =
        testing::run_program({"xmllint", "--xpath", "string(//testcase/error/@message)", junit});
    EXPECT_TRUE(contains(message.out, "run\\x01\\xff.csv")) << message.out;
}

// Any figure of the metric registry can be a limit, in its own unit; the verdict names it by
// its title. A threaded handler's |offset| p99 is far above 1 µs, its outliers below 600.
TEST(Gate, AnyRegistryMetricIsALimit) {
    TempDir dir;
    const auto current = model_capture(dir, "threaded", 8);
    const auto result = run_ppsbench(
        {"gate", current, "--max", "p99=1us", "--max", "outliers=600", "--max", "adev@1s=1"});
    EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
    EXPECT_TRUE(contains(result.out, "[FAIL] |offset| p99 ≤ 1000 ns: |offset| p99")) << result.out;
    EXPECT_TRUE(contains(result.out, "[pass] outliers ≤ 600:")) << result.out;
    EXPECT_TRUE(contains(result.out, "[pass] adev τ=1s ≤ 1: adev τ=1s")) << result.out;
    EXPECT_TRUE(contains(result.out, "1 of 3 checks failed")) << result.out;
    // The same limit as a shorthand and as --max gives the same verdict.
    const auto shorthand = run_ppsbench({"gate", current, "--max-sigma", "1us"});
    const auto generic = run_ppsbench({"gate", current, "--max", "sigma=1us"});
    EXPECT_EQ(shorthand.exit_code, 1);
    EXPECT_EQ(generic.exit_code, 1);
    EXPECT_TRUE(contains(generic.out, "[FAIL] raw PPS jitter (σ) ≤ 1000 ns")) << generic.out;
}

TEST(Gate, ASavedJsonSummaryServesAsBaseline) {
    TempDir dir;
    const auto baseline = model_capture(dir, "hardirq", 21);
    const auto summary = testing::run_ppsbench({"report", "--format", "json", baseline});
    ASSERT_EQ(summary.exit_code, 0);
    testing::write_text(dir.file("baseline.json"), summary.out);
    const auto current = model_capture(dir, "threaded", 22);
    const auto result = run_ppsbench(
        {"gate", "--baseline", dir.file("baseline.json"), current, "--max-ratio", "1.25"});
    EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
    EXPECT_TRUE(contains(result.out, "bootstrap n/a")) << "no pulses, F-interval only";
}

TEST(Gate, BadInputExitsTwoWithOneLine) {
    TempDir dir;
    const auto run = model_capture(dir, "hardirq", 1);
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"gate", run}, "give at least one limit"},
        {{"gate", run, "--max-ratio", "1.2"}, "--max-ratio needs --baseline"},
        {{"gate", "--baseline", run, run, "--max-ratio", "-1"}, "--max-ratio: use a positive"},
        {{"gate", run, "--max-sigma", "fast"}, "--max-sigma: 'fast' is not a duration"},
        {{"gate", run, "--max-rms-offset", "1us"}, "has no synchronised chrony sample"},
        {{"gate", run, "--max", "rms_offset=1us"}, "has no synchronised chrony sample"},
        {{"gate", run, "--max", "p99"}, "--max 'p99': write METRIC=LIMIT"},
        {{"gate", run, "--max", "p99=3"}, "--max p99: '3' has no unit"},
        {{"gate", run, "--max", "missed=-1"}, "--max missed -1: use a whole number from 0"},
        {{"gate", run, "--max", "adev@1s=small"}, "--max adev@1s: 'small' is not a number"},
        {{"gate", run, "--max", "jitteriness=1us"}, "--max: unknown metric 'jitteriness'"},
        {{"gate", "--baseline", dir.file("nope.csv"), run, "--max-ratio", "1.2"}, "cannot open"},
        {{"compare", run}, "--baseline"},
        {{"compare", "--baseline", run}, "name the runs to compare"},
        {{"compare", "--baseline", run, run, "--metrics", "sigma,jitteriness"},
         "unknown metric 'jitteriness'"},
        {{"report", run, "--format", "yaml"}, "--format yaml: use text, markdown, csv or json"},
        {{"report", run, "--detrend", "3"}, "--detrend 3"},
    };
    for (const auto& [args, expected] : cases) {
        const auto result = run_ppsbench(args);
        EXPECT_EQ(result.exit_code, 2) << expected << "\n" << result.err << result.out;
        EXPECT_TRUE(contains(result.err, expected))
            << "wanted " << expected << "\ngot " << result.err;
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    }
}

TEST(Compare, SaysWhetherADifferenceIsNoise) {
    TempDir dir;
    const auto stock = model_capture(dir, "hardirq", 31, 3600);
    const auto again = model_capture(dir, "hardirq", 32, 3600);
    const auto rt = model_capture(dir, "threaded", 33, 3600);
    const auto result = run_ppsbench({"compare", "--baseline", stock, again, rt});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(contains(result.out, "hardirq 32: σ ×")) << result.out;
    EXPECT_TRUE(contains(result.out, "within noise")) << result.out;
    EXPECT_TRUE(contains(result.out, "worse, not noise")) << result.out;

    const auto json = run_ppsbench({"compare", "--format", "json", "--baseline", stock, rt});
    const auto document = nlohmann::json::parse(json.out);
    EXPECT_EQ(document["schema"], "ppsbench.compare/2");
    const auto& sigma = document["runs"][0]["sigma_ratio"];
    EXPECT_NEAR(sigma["ratio"].get<double>(), 6947.0 / 2134.0, 0.25);
    EXPECT_GT(sigma["f_interval"][0].get<double>(), 2.5);
    EXPECT_EQ(sigma["direction"], 1);
}

TEST(Plot, IsValidSvgThatRendersToPng) {
    TempDir dir;
    const auto stock = model_capture(dir, "hardirq", 41);
    const auto rt = model_capture(dir, "threaded", 42);
    const auto svg = dir.file("plot.svg");
    ASSERT_EQ(run_ppsbench({"compare", "--baseline", stock, rt, "--plot", svg}).exit_code, 0);
    const auto xml = testing::run_program({"xmllint", "--noout", svg});
    EXPECT_EQ(xml.exit_code, 0) << xml.err;
    const auto text = testing::read_text(svg);
    for (const char* part :
         {"phase offset (µs)", "fraction of pulses", "time since the first pulse (s)",
          "hardirq 41 (simulated)", "threaded 42 (simulated)", "SIMULATED"}) {
        EXPECT_TRUE(contains(text, part)) << part;
    }
    if (::access("/usr/bin/rsvg-convert", X_OK) != 0) {
        GTEST_SKIP() << "rsvg-convert (librsvg2-bin) is not installed";
    }
    const auto png = dir.file("plot.png");
    const auto rendered = testing::run_program({"rsvg-convert", svg, "-o", png});
    EXPECT_EQ(rendered.exit_code, 0) << rendered.err;
    EXPECT_GT(std::filesystem::file_size(png), 10'000U);
}

TEST(Prometheus, ParsesWithTheReferenceClientParser) {
    TempDir dir;
    const auto run = model_capture(dir, "threaded", 51);
    const auto prom = dir.file("ppsbench.prom");
    ASSERT_EQ(run_ppsbench({"report", run, "--prometheus", prom}).exit_code, 0);
    const auto check = testing::run_program(
        {"/usr/bin/python3", "-c",
         "import sys\n"
         "from prometheus_client.parser import text_string_to_metric_families as parse\n"
         "families = {f.name: f for f in parse(open(sys.argv[1]).read())}\n"
         "s = families['ppsbench_offset_stddev_seconds'].samples[0]\n"
         "assert s.labels['simulated'] == 'true', s.labels\n"
         "assert 5e-6 < s.value < 9e-6, s.value\n"
         "assert len(families['ppsbench_offset_abs_seconds'].samples) == 6\n"
         "print(len(families))\n",
         prom});
    if (check.exit_code != 0 && contains(check.err, "No module named 'prometheus_client'")) {
        GTEST_SKIP() << "python3-prometheus-client is not installed";
    }
    EXPECT_EQ(check.exit_code, 0) << check.err;
    EXPECT_GE(std::stoi(check.out), 8);
}

// promtool is Prometheus's own check of the exposition format and its conventions: a gauge
// with a `quantile` label is refused there (only a summary has one), so the |offset|
// percentiles carry `percentile`. Both files ppsbench writes pass it: a report's and the live
// one a run keeps (sim:reference gives the live file its two paths' bias series too).
TEST(Prometheus, PromtoolChecksEveryFileWeWrite) {
    if (::access("/usr/bin/promtool", X_OK) != 0) {
        GTEST_SKIP() << "promtool (Debian: prometheus) is not installed";
    }
    TempDir dir;
    const auto report_prom = dir.file("report.prom");
    ASSERT_EQ(run_ppsbench({"report", model_capture(dir, "threaded", 52),
                            model_capture(dir, "hardirq", 53), "--prometheus", report_prom})
                  .exit_code,
              0);
    const auto live_prom = dir.file("live.prom");
    const auto live = run_ppsbench({"run", "-s", "sim:threaded", "-s", "sim:reference", "--count",
                                    "120", "--pace", "fast", "--prometheus", live_prom, "-o",
                                    dir.file("live.csv"), "--quiet"});
    ASSERT_EQ(live.exit_code, 0) << live.err;
    for (const auto& prom : {report_prom, live_prom}) {
        const auto check = testing::run_program(
            {"/bin/sh", "-c", "promtool check metrics < \"$1\" 2>&1", "sh", prom});
        EXPECT_EQ(check.exit_code, 0) << prom << ":\n" << check.out;
        EXPECT_EQ(check.out, "") << prom;
    }
    EXPECT_TRUE(contains(testing::read_text(report_prom), "ppsbench_offset_abs_seconds{file="));
    EXPECT_TRUE(contains(testing::read_text(report_prom), "percentile=\"99\""));
}

}  // namespace
}  // namespace ppsbench
