// SPDX-License-Identifier: GPL-2.0-or-later
// `run` left alone on a time server: --rotate, --prometheus and the progress lines for the
// journal. The built binary, real files, a simulated source paced in real time.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <tuple>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <regex>
#include <thread>

#include "cli.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;
using testing::without_drift_notes;

std::vector<std::string> files_in(const TempDir& dir, const std::string& prefix) {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        if (entry.path().filename().string().starts_with(prefix)) {
            files.push_back(entry.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

TEST(RunRotate, EveryPulseLandsInExactlyOneFileAndTheSequenceRunsOnAcrossSeams) {
    TempDir dir;
    const auto result = run_ppsbench({"run", "--source", "sim:threaded", "--pace", "realtime",
                                      "--period", "50ms", "--duration", "3.5s", "--rotate", "1s",
                                      "-o", dir.file("pps-%Y%m%dT%H%M%S.csv"), "--quiet"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto files = files_in(dir, "pps-");
    ASSERT_GE(files.size(), 3U) << result.out;
    std::uint64_t expected_sequence = 0;
    std::size_t total = 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto file = store::read_capture_file(files[i]);
        ASSERT_FALSE(file.pulses.empty()) << files[i];
        if (i > 0) {
            // No gap and no duplicate at the seam: the next file starts where the last ended.
            EXPECT_EQ(file.pulses.front().sequence, expected_sequence) << files[i];
            EXPECT_EQ(file.meta["rotation"]["previous_file"], files[i - 1]);
        }
        EXPECT_EQ(file.meta["rotation"]["index"], i);
        expected_sequence = file.pulses.back().sequence + 1;
        total += file.pulses.size();
        ASSERT_NE(file.end_record(), nullptr) << files[i] << " was not closed cleanly";
        EXPECT_EQ((*file.end_record())["pulses_in_file"], file.pulses.size());
        const bool last = i + 1 == files.size();
        EXPECT_EQ((*file.end_record())["stop_reason"], last ? "duration" : "rotated");
    }
    // 3.5 s of 20 pulses a second, all of them once.
    EXPECT_NEAR(static_cast<double>(total), 70.0, 2.0);
    EXPECT_TRUE(contains(
        result.out, fmt::format("{} pulses (duration) written to {} files", total, files.size())))
        << result.out;
    // The closing table is the whole run's, as `report --join` reads the parts, not the last
    // file's.
    std::vector<std::string> join{"report", "--join"};
    join.insert(join.end(), files.begin(), files.end());
    const auto joined = run_ppsbench(join);
    ASSERT_EQ(joined.exit_code, 0) << joined.err;
    const auto table = [](const std::string& text) { return text.substr(0, text.find("Figures")); };
    EXPECT_EQ(table(result.out), table(joined.out));
    EXPECT_TRUE(contains(table(result.out), fmt::format(" {} ", total))) << result.out;
}

// A run started just before a seam gets its first pulse after it: the first file (opened with
// the run) keeps it, rather than staying empty while the pulses go to a second file.
TEST(RunRotate, ARunStartedJustBeforeASeamLeavesNoEmptyFirstFile) {
    TempDir dir;
    // 40 ms before a whole second: the run starts there (ppsbench takes a few ms to start) and
    // the simulated 50 ms period puts its first pulse past the seam.
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    const auto into_second = now - std::chrono::duration_cast<std::chrono::seconds>(now);
    std::this_thread::sleep_for(std::chrono::milliseconds(1960) - into_second);
    const auto result = run_ppsbench({"run", "--source", "sim:threaded", "--pace", "realtime",
                                      "--period", "50ms", "--duration", "1.5s", "--rotate", "1s",
                                      "-o", dir.file("pps-%Y%m%dT%H%M%S.csv"), "--quiet"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto files = files_in(dir, "pps-");
    ASSERT_GE(files.size(), 1U) << result.out;
    std::size_t total = 0;
    for (const auto& path : files) {
        const auto file = store::read_capture_file(path);
        EXPECT_FALSE(file.pulses.empty()) << path;
        total += file.pulses.size();
    }
    EXPECT_NEAR(static_cast<double>(total), 30.0, 2.0);
}

TEST(RunRotate, RefusesANameWithoutAPatternOrOneThatRepeats) {
    TempDir dir;
    auto result = run_ppsbench({"run", "--source", "sim:threaded", "--count", "5", "--rotate", "1h",
                                "-o", dir.file("fixed.csv")});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "strftime pattern")) << result.err;
    result = run_ppsbench({"run", "--source", "sim:threaded", "--count", "5", "--rotate", "1h",
                           "-o", dir.file("day-%Y%m%d.csv")});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "same name")) << result.err;
    // Patterns that repeat after more than one interval: a week, a month, a year, a century.
    for (const auto& [rotate, pattern, apart] :
         std::vector<std::tuple<std::string, std::string, std::string>>{
             {"1d", "pps-%a.csv", "7 days "},
             {"1d", "pps-%d.csv", ""},       // 28 to 31 days, as the month the probe meets
             {"1h", "pps-%m%d-%H.csv", ""},  // 365 or 366 days
             {"1d", "pps-%y%m%d.csv", ""},   // a century
             {"1s", "pps-%H%M%S.csv", "1 day "}}) {
        result = run_ppsbench({"run", "--source", "sim:threaded", "--count", "5", "--rotate",
                               rotate, "-o", dir.file(pattern)});
        EXPECT_EQ(result.exit_code, 2) << pattern;
        EXPECT_TRUE(contains(result.err, "gives files " + apart)) << pattern << ": " << result.err;
        EXPECT_TRUE(contains(result.err, "apart the same name")) << pattern << ": " << result.err;
        EXPECT_TRUE(contains(result.err, "add the date fields")) << result.err;
    }
    EXPECT_TRUE(files_in(dir, "").empty());
    // Longer than a month between files is refused before any file.
    result = run_ppsbench({"run", "--source", "sim:threaded", "--count", "5", "--rotate", "32d",
                           "-o", dir.file("pps-%Y%m%d.csv")});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "use 1s to 31d")) << result.err;
    EXPECT_TRUE(files_in(dir, "").empty());
    // Every seam of a century named apart: accepted.
    for (const auto& pattern : {"pps-%Y%m%d.csv", "pps-%G-W%V-%u.csv", "pps-%s.csv"}) {
        result = run_ppsbench({"run", "--source", "sim:threaded", "--count", "5", "--rotate", "1d",
                               "-o", dir.file(pattern)});
        EXPECT_EQ(result.exit_code, 0) << pattern << ": " << result.err;
    }
}

TEST(RunPrometheus, WritesTheRunSoFarAndTheLastIntervalAtomically) {
    TempDir dir;
    const auto prom = dir.file("ppsbench.prom");
    const auto result =
        run_ppsbench({"run", "--source", "sim:threaded", "--pace", "realtime", "--period", "50ms",
                      "--duration", "2.5s", "--label", "stock", "-o", dir.file("run.csv"),
                      "--prometheus", prom, "--prometheus-interval", "1s", "--quiet"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_FALSE(std::filesystem::exists(prom + ".tmp"));
    const auto text = testing::read_text(prom);
    const auto file = store::read_capture_file(dir.file("run.csv"));
    // Labels in the one writer's order (render::write_prometheus: by name), as report's.
    EXPECT_TRUE(std::regex_search(
        text, std::regex(R"(ppsbench_live_pulses\{[^}]*run="stock",simulated="true",)"
                         R"(source="sim:threaded",window=)")))
        << text;
    std::smatch match;
    const std::regex run_pulses(R"(ppsbench_live_pulses\{[^}]*window="run"\} (\d+))");
    ASSERT_TRUE(std::regex_search(text, match, run_pulses)) << text;
    EXPECT_EQ(std::stoul(match[1]), file.pulses.size());
    for (const char* name :
         {"ppsbench_live_offset_stddev_seconds", "ppsbench_live_offset_peak_to_peak_seconds",
          "ppsbench_live_offset_rms_seconds", "ppsbench_live_missed_pulses",
          "ppsbench_live_outliers"}) {
        for (const char* window : {"interval", "run"}) {
            EXPECT_TRUE(std::regex_search(
                text, std::regex(fmt::format(R"({}\{{[^}}]*window="{}"\}} )", name, window))))
                << name << " " << window << "\n"
                << text;
        }
    }
    EXPECT_TRUE(contains(text, "# TYPE ppsbench_live_offset_stddev_seconds gauge"));
}

TEST(RunProgress, PrintsALineEveryIntervalWhenStderrIsNotATerminal) {
    TempDir dir;
    // The test harness's stderr is a pipe, as under systemd or nohup.
    auto result =
        run_ppsbench({"run", "--source", "sim:threaded", "--pace", "realtime", "--period", "50ms",
                      "--duration", "3.5s", "--progress-interval", "1s", "-o", dir.file("a.csv")});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto lines = std::count(result.err.begin(), result.err.end(), '\n');
    EXPECT_GE(lines, 3) << result.err;
    EXPECT_TRUE(contains(result.err, "ppsbench: SIMULATED sim:threaded")) << result.err;
    EXPECT_TRUE(contains(result.err, "σ")) << result.err;
    EXPECT_EQ(result.err.find('\r'), std::string::npos) << "no terminal redraws in a journal";

    result = run_ppsbench({"run", "--source", "sim:threaded", "--pace", "realtime", "--period",
                           "50ms", "--duration", "2.5s", "--progress-interval", "1s", "--quiet",
                           "-o", dir.file("b.csv")});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(without_drift_notes(result.err), "");
}

}  // namespace
}  // namespace ppsbench
