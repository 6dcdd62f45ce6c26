// SPDX-License-Identifier: GPL-2.0-or-later
// `report/compare/gate --chrony-log tracking.log` (issue 25 item 4): chrony's figures of a
// capture from chronyd's own log of the same minutes, restarts respected, so the write-up's
// table (chrony's RMS offset beside the raw σ of each kernel) comes from files people have.
// The logs are a real chronyd 4.3's (tests/import/fixtures/README.md): two processes, and an
// in-process fallback-drift line; chronyc said RMS offset 687 ns at the end of process 1 and
// 380 ns at the end of process 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

std::string fixture(const std::string& name) {
    return std::string(PPSBENCH_SOURCE_DIR) + "/tests/import/fixtures/" + name;
}

const std::string tracking_log = fixture("chrony-tracking-restart-fallbackdrift.log");

// The refclocks.log lines of the same chronyd for which `keep(time)` holds, imported as a
// capture (chronyd's PPS samples: what `run` on the device would have measured).
std::string capture_of(const TempDir& dir, const std::string& name,
                       bool (*keep)(const std::string& time)) {
    std::istringstream in(
        testing::read_text(fixture("chrony-refclocks-restart-fallbackdrift.log")));
    std::string text;
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with("2026-") && keep(line.substr(11, 8))) {
            text += line + "\n";
        }
    }
    testing::write_text(dir.file(name + ".log"), text);
    const auto result = run_ppsbench(
        {"import", "chrony-refclocks", dir.file(name + ".log"), "-o", dir.file(name + ".csv")});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return dir.file(name + ".csv");
}

bool first_process(const std::string& time) {
    return time < "01:27:09";
}
bool second_process(const std::string& time) {
    return time > "01:27:09";
}
bool everything(const std::string&) {
    return true;
}

nlohmann::json report_json(const std::vector<std::string>& args, testing::CommandResult* out) {
    std::vector<std::string> all{"report", "--format", "json"};
    all.insert(all.end(), args.begin(), args.end());
    *out = run_ppsbench(all);
    EXPECT_EQ(out->exit_code, 0) << out->err;
    return nlohmann::json::parse(out->out, nullptr, false);
}

// The write-up's table from two captures and the log of the same day: each row gets the RMS
// offset of its own chronyd process at its own end, as chronyc said then.
TEST(ChronyLog, EachCaptureGetsTheRmsOffsetOfItsOwnSpanAndProcess) {
    TempDir dir;
    const auto stock = capture_of(dir, "stock", first_process);
    const auto rt = capture_of(dir, "rt", second_process);
    testing::CommandResult result;
    const auto document = report_json({stock, rt, "--chrony-log", tracking_log}, &result);
    ASSERT_EQ(document["runs"].size(), 2U) << result.out;
    const auto& a = document["runs"][0]["chrony"];
    const auto& b = document["runs"][1]["chrony"];
    ASSERT_TRUE(a.is_object() && b.is_object()) << result.out;
    EXPECT_NEAR(a["rms_offset_ns"]["end"].get<double>(), 687.0, 4.0);
    EXPECT_NEAR(b["rms_offset_ns"]["end"].get<double>(), 380.0, 3.0);
    EXPECT_EQ(a["reference"]["ref_id"], "50505300");
    EXPECT_EQ(a["reference"]["name"], "PPS");
    // rt's span holds the fallback-drift line: an unsynchronised sample of the same process.
    EXPECT_EQ(b["synchronised_samples"].get<int>() + 1, b["samples"].get<int>());
    EXPECT_FALSE(contains(result.err, "chronyd restarted within it")) << result.err;

    // The text table puts it beside the raw σ.
    const auto text = run_ppsbench({"report", stock, rt, "--chrony-log", tracking_log});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_TRUE(contains(text.out, "chrony")) << text.out;
}

// One capture over both processes: the rows are chronyd's at each time, so the RMS offset at
// the end is process 2's (chronyd restarted its average), not a blend of both.
TEST(ChronyLog, ACaptureAcrossARestartEndsOnTheNewProcessesAverage) {
    TempDir dir;
    const auto both = capture_of(dir, "both", everything);
    testing::CommandResult result;
    const auto document = report_json({both, "--chrony-log", tracking_log}, &result);
    EXPECT_NEAR(document["runs"][0]["chrony"]["rms_offset_ns"]["end"].get<double>(), 380.0, 3.0);
    EXPECT_TRUE(contains(result.err, "both.csv: chronyd restarted within it (" + tracking_log +
                                         ":26, start-up line and banner after 19 entries"))
        << result.err;
}

// A capture of another day: refused (exit 2) naming both spans, nothing printed on stdout.
TEST(ChronyLog, SpansThatDoNotOverlapAreRefusedNamingBoth) {
    TempDir dir;
    const auto other = dir.file("other.csv");
    testing::write_text(other,
                        "# ppsbench capture 1\n# meta {\"source\":\"pps:/dev/pps0\"}\n"
                        "sequence,edge,timestamp_ns\n1,assert,1767225600000000100\n"
                        "2,assert,1767225601000000200\n3,assert,1767225602000000050\n");
    const auto result = run_ppsbench({"report", other, "--chrony-log", tracking_log});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(result.out.empty()) << result.out;
    EXPECT_TRUE(contains(result.err,
                         "other.csv spans 2026-01-01T00:00:00Z to "
                         "2026-01-01T00:00:02Z UTC"))
        << result.err;
    EXPECT_TRUE(contains(result.err,
                         "spans 2026-12-02T01:26:28Z to 2026-12-02T01:28:53Z UTC: "
                         "they do not overlap"))
        << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
}

// A capture that runs on past the log (here 37 s past its last row, more than the longest wait
// between two rows, 16 s) is reported from the rows it has, with a warning naming both spans.
TEST(ChronyLog, APartialOverlapIsUsedWithAWarning) {
    TempDir dir;
    const auto later = dir.file("later.csv");
    std::string text =
        "# ppsbench capture 1\n# meta {\"source\":\"pps:/dev/pps0\"}\nsequence,edge,timestamp_ns\n";
    for (int i = 0; i <= 90; ++i) {  // 01:28:00 to 01:29:30 UTC
        text += std::to_string(i + 1) + ",assert," +
                std::to_string((1'796'174'880LL + i) * 1'000'000'000 + 100 * (i % 5)) + "\n";
    }
    testing::write_text(later, text);
    testing::CommandResult result;
    const auto document = report_json({later, "--chrony-log", tracking_log}, &result);
    EXPECT_NEAR(document["runs"][0]["chrony"]["rms_offset_ns"]["end"].get<double>(), 380.0, 3.0);
    EXPECT_TRUE(contains(result.err,
                         "later.csv: spans 2026-12-02T01:28:00Z to "
                         "2026-12-02T01:29:30Z UTC, --chrony-log "))
        << result.err;
    EXPECT_TRUE(contains(result.err, "chrony's figures cover the overlap only")) << result.err;
}

// --chrony-log wins over the capture's own '# chrony' samples, and says so.
TEST(ChronyLog, TheLogReplacesTheCapturesOwnSamplesWithAWarning) {
    TempDir dir;
    const auto both = capture_of(dir, "both", everything);
    std::string text = testing::read_text(both);
    const auto at = text.find("sequence,edge,timestamp_ns\n");
    ASSERT_NE(at, std::string::npos);
    // What `run` writes when no chronyd answers (chrony/json.cpp, version 1).
    text.insert(at,
                "# chrony {\"v\":1,\"time_ns\":1796174800000000000,\"status\":"
                "\"chronyd-not-running\",\"detail\":\"no chronyd\",\"tracking\":null,"
                "\"pps_pick\":\"none\",\"pps_source\":null,\"pps_stats\":null}\n");
    testing::write_text(both, text);
    testing::CommandResult result;
    const auto own = report_json({both}, &result);
    EXPECT_EQ(own["runs"][0]["chrony"]["status"], "chronyd-not-running") << result.out;
    const auto logged = report_json({both, "--chrony-log", tracking_log}, &result);
    EXPECT_EQ(logged["runs"][0]["chrony"]["status"], "ok");
    EXPECT_TRUE(contains(result.err, "its 1 '# chrony' samples are replaced by the")) << result.err;
}

// The gate judges chrony's figure from the log like any other (exit 1 on a failed limit); the
// capture is 82 pulses, under the gate's default minimum of 100.
TEST(ChronyLog, GateJudgesTheLogsRmsOffset) {
    TempDir dir;
    const auto rt = capture_of(dir, "rt", second_process);
    EXPECT_EQ(run_ppsbench({"gate", rt, "--chrony-log", tracking_log, "--min-pulses", "50", "--max",
                            "rms_offset=1us"})
                  .exit_code,
              0);
    const auto failed = run_ppsbench({"gate", rt, "--chrony-log", tracking_log, "--min-pulses",
                                      "50", "--max", "rms_offset=100ns"});
    EXPECT_EQ(failed.exit_code, 1) << failed.out << failed.err;
    const auto compared =
        run_ppsbench({"compare", "--baseline", rt, rt, "--chrony-log", tracking_log});
    EXPECT_EQ(compared.exit_code, 0) << compared.err;
}

TEST(ChronyLog, WhatCannotBeAlignedIsRefused) {
    TempDir dir;
    const auto monotonic = dir.file("gpio.csv");
    testing::write_text(monotonic,
                        "# ppsbench capture 1\n# meta {\"source\":\"gpio:gpiochip0:17\","
                        "\"clock\":\"monotonic\"}\nsequence,edge,timestamp_ns\n"
                        "1,assert,1000000000\n2,assert,2000000100\n3,assert,3000000000\n");
    auto result = run_ppsbench({"report", monotonic, "--chrony-log", tracking_log});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "gpio.csv is stamped on the monotonic clock")) << result.err;

    const auto gz = dir.file("tracking.log.1.gz");
    testing::write_text(gz, std::string("\x1f\x8b\x08\x00", 4) + "not really");
    result = run_ppsbench({"report", monotonic, "--chrony-log", gz});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "tracking.log.1.gz: gzip-compressed")) << result.err;

    const auto not_tracking = fixture("chrony-refclocks-restart-fallbackdrift.log");
    result = run_ppsbench({"report", monotonic, "--chrony-log", not_tracking});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "no tracking.log entry")) << result.err;

    result = run_ppsbench({"report", monotonic, "--chrony-log", dir.file("absent.log")});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "absent.log")) << result.err;
}

}  // namespace
}  // namespace ppsbench
