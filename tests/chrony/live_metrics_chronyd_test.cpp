// SPDX-License-Identifier: GPL-2.0-or-later
// `run --prometheus` with a real chronyd (started by the harness, never touching the host
// clock): the live file carries chrony's RMS offset and status from the run's last sample.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>

#include "chronyd_fixture.hpp"
#include "cli.hpp"
#include "ppsbench/chrony/json.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::chrony {
namespace {

TEST(LiveMetricsWithChronyd, CarryChronysRmsOffsetAndStatusFromTheLastSample) {
    if (::access("/usr/sbin/chronyd", X_OK) != 0) {
        GTEST_SKIP() << "chronyd is not installed (Debian package chrony)";
    }
    testing::ChronydFixture chronyd;
    ASSERT_TRUE(chronyd.wait_synchronised(std::chrono::seconds(30))) << chronyd.chronyd_output();
    ppsbench::testing::TempDir dir;
    const auto path = dir.file("live.csv");
    const auto prom = dir.file("live.prom");
    const auto run = ppsbench::testing::run_ppsbench({"run",
                                                      "-s",
                                                      "sim:hardirq",
                                                      "--pace",
                                                      "realtime",
                                                      "--period",
                                                      "100ms",
                                                      "--duration",
                                                      "2500ms",
                                                      "--chrony",
                                                      "on",
                                                      "--chrony-socket",
                                                      chronyd.socket_path(),
                                                      "--chrony-interval",
                                                      "1s",
                                                      "--chrony-refid",
                                                      "PPS",
                                                      "-o",
                                                      path,
                                                      "--prometheus",
                                                      prom,
                                                      "--prometheus-interval",
                                                      "1s",
                                                      "--quiet"});
    ASSERT_EQ(run.exit_code, 0) << run.err;

    const auto file = store::read_capture_file(path);
    std::optional<ChronySample> last;
    for (const auto& note : file.notes) {
        if (note.tag == "chrony") {
            last = note.body.get<ChronySample>();
        }
    }
    ASSERT_TRUE(last && last->status == ChronyStatus::ok && last->tracking);
    const auto text = ppsbench::testing::read_text(prom);
    EXPECT_NE(text.find(R"(status="ok"} 1)"), std::string::npos) << text;
    EXPECT_NE(text.find(R"(status="not-synchronised"} 0)"), std::string::npos) << text;
    const auto rms_line = text.find("ppsbench_live_chrony_rms_offset_seconds{");
    ASSERT_NE(rms_line, std::string::npos) << text;
    const auto value_at = text.find("} ", rms_line) + 2;
    const double rms = std::stod(text.substr(value_at, text.find('\n', value_at) - value_at));
    EXPECT_NEAR(rms, static_cast<double>(last->tracking->rms_offset_ns) * 1e-9, 1e-15);
}

// The two chrony series the shipped rules join with the bias, from a real chronyd and its real
// chrony.conf (a SOCK refclock named PPS, offset 30 µs): written on the measured path's labels
// as the bias is, so promtool, fed the file's own lines, evaluates PpsBiasBeyondCalibration's
// join (a bias of about 12 µs, as chrony's filter sees it, against a configured 30 µs) and
// keeps ChronyOnAnotherSource silent.
TEST(LiveMetricsWithChronyd, WriteTheRefclocksOffsetAndWhetherChronydFollowsIt) {
    if (::access("/usr/sbin/chronyd", X_OK) != 0) {
        GTEST_SKIP() << "chronyd is not installed (Debian package chrony)";
    }
    testing::ChronydConfig config;
    config.refclock_offset = 30e-6;
    testing::ChronydFixture chronyd(config);
    ASSERT_TRUE(chronyd.wait_synchronised(std::chrono::seconds(30))) << chronyd.chronyd_output();
    ppsbench::testing::TempDir dir;
    const auto prom = dir.file("live.prom");
    const auto run = ppsbench::testing::run_ppsbench({"run",
                                                      "--source",
                                                      "sim:threaded,late=12us",
                                                      "--source",
                                                      "sim:reference",
                                                      "--pace",
                                                      "realtime",
                                                      "--period",
                                                      "10ms",
                                                      "--duration",
                                                      "2500ms",
                                                      "--label",
                                                      "pi",
                                                      "--chrony",
                                                      "on",
                                                      "--chrony-socket",
                                                      chronyd.socket_path(),
                                                      "--chrony-interval",
                                                      "1s",
                                                      "--chrony-refid",
                                                      "PPS",
                                                      "--chrony-conf",
                                                      chronyd.conf_path(),
                                                      "-o",
                                                      dir.file("r.csv"),
                                                      "--prometheus",
                                                      prom,
                                                      "--prometheus-interval",
                                                      "1s",
                                                      "--quiet"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto text = ppsbench::testing::read_text(prom);
    const auto line = [&](const std::string& name, const std::string& path) {
        std::smatch match;
        const std::regex series(name + R"(\{[^}]*path=")" + path + R"("[^}]*\} (\S+))");
        EXPECT_TRUE(std::regex_search(text, match, series)) << name << "\n" << text;
        return match.empty() ? std::pair<std::string, std::string>{}
                             : std::pair<std::string, std::string>{match[0], match[1]};
    };
    const auto offset = line("ppsbench_live_chrony_refclock_offset_seconds", "A");
    EXPECT_DOUBLE_EQ(std::stod(offset.second), 30e-6);
    EXPECT_EQ(line("ppsbench_live_chrony_pps_selected", "A").second, "1");
    const auto bias = line("ppsbench_live_bias_seconds", "A");

    if (std::system("command -v promtool >/dev/null 2>&1") != 0) {
        GTEST_SKIP() << "promtool not installed (Debian: prometheus)";
    }
    // The series exactly as written (promtool's input_series takes the exposition form).
    const auto as_input = [](const std::string& written) {
        const auto space = written.rfind(' ');
        std::string quoted;
        for (const char c : written.substr(0, space)) {
            quoted += c == '\'' ? std::string("''") : std::string(1, c);
        }
        return "      - series: '" + quoted + "'\n        values: '" + written.substr(space + 1) +
               "x60'\n";
    };
    const auto last_match = [&](const std::string& pattern) {
        const std::regex re(pattern);
        std::string last;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), re);
             it != std::sregex_iterator(); ++it) {
            last = (*it)[0];
        }
        return last;
    };
    // The figure the rule compares: chrony's filter estimate (16 pairs a poll, at 100 Hz several
    // in the last interval).
    const auto interval_bias =
        last_match(R"(ppsbench_live_bias_filtered_seconds\{[^}]*window="interval"\} \S+)");
    ASSERT_FALSE(interval_bias.empty()) << text;
    const auto status_ok =
        last_match(R"(ppsbench_live_chrony_status\{[^}]*path="A"[^}]*status="ok"\} \S+)");
    ASSERT_FALSE(status_ok.empty()) << text;
    const auto test_file = dir.file("rules-test.yml");
    {
        std::ofstream out(test_file);
        out << "rule_files:\n  - " << PPSBENCH_SOURCE_DIR
            << "/dist/prometheus/ppsbench.rules.yml\nevaluation_interval: 1m\ntests:\n"
            << "  - interval: 1m\n    input_series:\n"
            << as_input(interval_bias) << as_input(offset.first)
            << as_input(line("ppsbench_live_chrony_pps_selected", "A").first) << as_input(status_ok)
            << "    alert_rule_test:\n"
            << "      - eval_time: 45m\n        alertname: ChronyOnAnotherSource\n"
            << "        exp_alerts: []\n";
    }
    const auto command = "promtool test rules " + test_file + " > " + test_file + ".out 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << ppsbench::testing::read_text(test_file + ".out");
    // The join itself: the rule's expression on the written lines is their difference.
    const auto query_file = dir.file("query-test.yml");
    {
        std::ofstream out(query_file);
        out << "rule_files:\n  - " << PPSBENCH_SOURCE_DIR
            << "/dist/prometheus/ppsbench.rules.yml\nevaluation_interval: 1m\ntests:\n"
            << "  - interval: 1m\n    input_series:\n"
            << as_input(interval_bias) << as_input(offset.first)
            << "    promql_expr_test:\n      - expr: count(abs(avg_over_time("
               "ppsbench_live_bias_filtered_seconds{window=\"interval\"}[30m]) - on (host, run) "
               "group_left ppsbench_live_chrony_refclock_offset_seconds) > 1e-6)\n"
            << "        eval_time: 45m\n        exp_samples:\n          - labels: '{}'\n"
            << "            value: 1\n";
    }
    const auto query = "promtool test rules " + query_file + " > " + query_file + ".out 2>&1";
    EXPECT_EQ(std::system(query.c_str()), 0) << ppsbench::testing::read_text(query_file + ".out");
    EXPECT_NEAR(std::stod(bias.second), 12e-6, 4e-6);
}

}  // namespace
}  // namespace ppsbench::chrony
