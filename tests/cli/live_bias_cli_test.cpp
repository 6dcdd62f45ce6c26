// SPDX-License-Identifier: GPL-2.0-or-later
// A two-path run with a reference exports the measured path's bias while it runs
// (ppsbench_live_bias_seconds, the name dist/prometheus/ppsbench.rules.yml alerts on) and says
// it in the path's progress lines. The built binary, two simulated sources paced in real time.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

const std::vector<std::string> late_against_reference{"run",
                                                      "--source",
                                                      "sim:threaded,late=12us",
                                                      "--source",
                                                      "sim:reference",
                                                      "--pace",
                                                      "realtime",
                                                      "--period",
                                                      "10ms",
                                                      "--duration",
                                                      "2.5s",
                                                      "--label",
                                                      "pi",
                                                      "--progress-interval",
                                                      "1s"};

std::vector<std::string> with(std::vector<std::string> more) {
    auto args = late_against_reference;
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

double bias_sample(const std::string& text, const std::string& window) {
    std::smatch match;
    const std::regex sample(fmt::format(
        R"(ppsbench_live_bias_seconds\{{[^}}]*path="A",run="pi",[^}}]*window="{}"\}} (\S+))",
        window));
    if (!std::regex_search(text, match, sample)) {
        ADD_FAILURE() << "no " << window << " bias in\n" << text;
        return 0;
    }
    return std::stod(match[1]);
}

// Paired as they arrive, the run's figure is report's of the same files, pair for pair.
TEST(LiveBiasMonitor, ThePrometheusFileHasThePathsBiasAgainstTheReference) {
    TempDir dir;
    const auto prom = dir.file("ppsbench.prom");
    const auto result = run_ppsbench(with(
        {"-o", dir.file("b.csv"), "--prometheus", prom, "--prometheus-interval", "1s", "--quiet"}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto text = testing::read_text(prom);
    EXPECT_TRUE(contains(text, "# TYPE ppsbench_live_bias_seconds gauge")) << text;
    const auto report = run_ppsbench({"report", "--format", "json", dir.file("b-1.csv")});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    const auto bias = nlohmann::json::parse(report.out).at("runs").at(0).at("bias");
    EXPECT_NEAR(bias_sample(text, "run") * 1e9, bias.at("mean_ns").get<double>(), 0.5) << text;
    // late=12us: the mean is about it (the threaded model's delay is skewed, not offset).
    EXPECT_NEAR(bias_sample(text, "run"), 12e-6, 3e-6);
    EXPECT_TRUE(std::isfinite(bias_sample(text, "interval")));
    // Only the measured path has a bias: the reference's would be against itself.
    EXPECT_FALSE(
        std::regex_search(text, std::regex(R"(ppsbench_live_bias_seconds\{[^}]*path="B")")))
        << text;
}

TEST(LiveBiasMonitor, TheMeasuredPathsProgressLinesSayIt) {
    TempDir dir;
    const auto result = run_ppsbench(with({"-o", dir.file("p.csv")}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(std::regex_search(
        result.err,
        std::regex(R"(path A: SIMULATED sim:threaded,late=12us .*; bias vs sim:reference run )"
                   R"(\+[0-9.]+ µs \(\d+ pairs\), chrony's filter \+[0-9.]+ µs, last )")))
        << result.err;
    EXPECT_FALSE(std::regex_search(result.err, std::regex("path B:[^\n]*bias vs"))) << result.err;
}

// The live figure the alert compares with chrony's offset is the constant `calibrate` gives
// for the same file: chrony's filter over each 16 consecutive pairs, averaged. On the skewed
// threaded model that differs from the plain mean by about a microsecond, which a mean would
// have the rule fire on after a correct calibration.
TEST(LiveBiasMonitor, ItsFilteredFigureIsTheConstantCalibrateGives) {
    TempDir dir;
    const auto prom = dir.file("ppsbench.prom");
    const auto result = run_ppsbench(with(
        {"-o", dir.file("c.csv"), "--prometheus", prom, "--prometheus-interval", "1s", "--quiet"}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto text = testing::read_text(prom);
    const auto calibration = run_ppsbench({"calibrate", "--format", "json", dir.file("c-1.csv")});
    ASSERT_EQ(calibration.exit_code, 0) << calibration.err << calibration.out;
    const auto c = nlohmann::json::parse(calibration.out);
    std::smatch match;
    ASSERT_TRUE(std::regex_search(
        text, match,
        std::regex(
            R"(ppsbench_live_bias_filtered_seconds\{[^}]*path="A",run="pi",[^}]*window="run"\} (\S+))")))
        << text;
    const double filtered_ns = std::stod(match[1]) * 1e9;
    EXPECT_NEAR(filtered_ns, c.at("constant_ns").get<double>(), 0.5) << text;
    EXPECT_GT(std::abs(filtered_ns - bias_sample(text, "run") * 1e9), 200.0)
        << "the filter and the mean should differ on the skewed model";
}

// Without a reference there is nothing to pair: no bias family at all.
TEST(LiveBiasMonitor, NoReferenceNoBias) {
    TempDir dir;
    const auto prom = dir.file("none.prom");
    const auto result =
        run_ppsbench({"run", "--source", "sim:hardirq", "--source", "sim:threaded", "--pace",
                      "realtime", "--period", "50ms", "--duration", "1.5s", "-o", dir.file("n.csv"),
                      "--prometheus", prom, "--prometheus-interval", "1s", "--quiet"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_FALSE(contains(testing::read_text(prom), "ppsbench_live_bias_seconds"));
}

// The shipped alert rule reads the file as written: promtool evaluates the bias as chrony's
// filter sees it against a configured offset equal to it and 5 µs off. Skipped where promtool
// is not installed.
TEST(LiveBiasMonitor, TheShippedRuleReadsTheWrittenSeries) {
    if (std::system("command -v promtool >/dev/null 2>&1") != 0) {
        GTEST_SKIP() << "promtool not installed (Debian: prometheus)";
    }
    TempDir dir;
    const auto prom = dir.file("ppsbench.prom");
    ASSERT_EQ(run_ppsbench(with({"-o", dir.file("r.csv"), "--prometheus", prom,
                                 "--prometheus-interval", "1s", "--quiet"}))
                  .exit_code,
              0);
    const auto text = testing::read_text(prom);
    std::smatch match;
    ASSERT_TRUE(std::regex_search(
        text, match,
        std::regex(R"((ppsbench_live_bias_filtered_seconds\{[^}]*window="interval"\}) (\S+))")))
        << text;
    // The exact series line, host and all, as input to the rule's unit test.
    const std::string series = match[1];
    const std::string value = match[2];
    std::smatch host;
    ASSERT_TRUE(std::regex_search(series, host, std::regex(R"re(host="([^"]*)")re")));
    std::string escaped;
    for (const char c : series) {
        escaped += c == '\'' ? std::string("''") : std::string(1, c);
    }
    // Calibrated: chrony's offset is the bias as written; 5 µs off: the rule must fire.
    const auto write_test = [&](const std::string& path, double offset, bool fires) {
        std::ofstream out(path);
        out << "rule_files:\n  - " << PPSBENCH_SOURCE_DIR << "/dist/prometheus/ppsbench.rules.yml\n"
            << "evaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series:\n"
            << "      - series: '" << escaped << "'\n        values: '" << value << "x60'\n"
            << "      - series: 'ppsbench_live_chrony_refclock_offset_seconds{host=\""
            << host[1].str() << "\",run=\"pi\"}'\n        values: '" << offset << "x60'\n"
            << "    alert_rule_test:\n      - eval_time: 45m\n        alertname: "
               "PpsBiasBeyondCalibration\n";
        if (!fires) {
            out << "        exp_alerts: []\n";
            return;
        }
        out << "        exp_alerts:\n          - exp_labels:\n";
        // Every label of the series, and the rule's own.
        const std::regex label(R"re((\w+)="([^"]*)")re");
        for (auto it = std::sregex_iterator(series.begin(), series.end(), label);
             it != std::sregex_iterator(); ++it) {
            out << "              " << (*it)[1] << ": \"" << (*it)[2] << "\"\n";
        }
        out << "              severity: warning\n"
            << "            exp_annotations:\n"
            << "              summary: \"PPS bias on " << host[1].str()
            << " is 5us away from the configured refclock offset\"\n"
            << "              description: \"Run 'ppsbench calibrate' on a fresh capture with a "
               "reference and update the refclock offset (docs/calibrate.md).\"\n";
    };
    const auto calibrated = dir.file("calibrated.yml");
    const auto uncalibrated = dir.file("uncalibrated.yml");
    write_test(calibrated, std::stod(value), false);
    write_test(uncalibrated, std::stod(value) - 5e-6, true);
    for (const auto& file : {calibrated, uncalibrated}) {
        const auto command = "promtool test rules " + file + " > " + file + ".out 2>&1";
        EXPECT_EQ(std::system(command.c_str()), 0) << testing::read_text(file + ".out");
    }
}

}  // namespace
}  // namespace ppsbench
