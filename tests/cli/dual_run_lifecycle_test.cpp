// SPDX-License-Identifier: GPL-2.0-or-later
// A two-path run (`run --source A --source B`) has what a single run has, because both are uses
// of one lifecycle (session/lifecycle.hpp): progress lines, --rotate, one live --prometheus file,
// each path's own CPU, and default names that never collide. The built binary, real files, two
// simulated sources paced in real time.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "cli.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::count_of;
using testing::run_ppsbench;
using testing::TempDir;
using testing::without_drift_notes;

std::vector<std::string> files_ending(const std::filesystem::path& dir, const std::string& tail) {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().filename().string().ends_with(tail)) {
            files.push_back(entry.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

const std::vector<std::string> two_paced_paths{"run",      "--source",     "sim:hardirq",
                                               "--source", "sim:threaded", "--pace",
                                               "realtime", "--period",     "50ms"};

std::vector<std::string> two_paths(std::vector<std::string> more) {
    auto args = two_paced_paths;
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

TEST(DualRunLifecycle, PrintsOneProgressLinePerPathNamingItWhenStderrIsNotATerminal) {
    TempDir dir;
    // The test harness's stderr is a pipe, as under systemd or nohup.
    const auto result = run_ppsbench(
        two_paths({"--duration", "3.5s", "--progress-interval", "1s", "-o", dir.file("p.csv")}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_GE(count_of(result.err, "ppsbench: path A: SIMULATED sim:hardirq "), 3U) << result.err;
    EXPECT_GE(count_of(result.err, "ppsbench: path B: SIMULATED sim:threaded "), 3U) << result.err;
    // The lines come in pairs, A then B, each round.
    EXPECT_EQ(count_of(result.err, "path A: "), count_of(result.err, "path B: ")) << result.err;
    EXPECT_EQ(result.err.find('\r'), std::string::npos) << "no terminal redraws in a journal";

    const auto quiet = run_ppsbench(two_paths(
        {"--duration", "1.5s", "--progress-interval", "1s", "--quiet", "-o", dir.file("q.csv")}));
    ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
    EXPECT_EQ(without_drift_notes(quiet.err), "");
}

// Both paths rotate at the same seams (multiples of --rotate since the epoch); every part of
// both carries the run's one id, and a part's peer_file is the other path's pattern.
TEST(DualRunLifecycle, RotatesBothPathsWithPartsLinkedByOneRunId) {
    TempDir dir;
    const auto pattern = dir.file("pps-%Y%m%dT%H%M%S.csv");
    const auto result =
        run_ppsbench(two_paths({"--duration", "3.5s", "--rotate", "1s", "-o", pattern, "--quiet"}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::array<std::vector<std::string>, 2> parts{files_ending(dir.path(), "-1.csv"),
                                                        files_ending(dir.path(), "-2.csv")};
    const std::array<std::string, 2> patterns{dir.file("pps-%Y%m%dT%H%M%S-1.csv"),
                                              dir.file("pps-%Y%m%dT%H%M%S-2.csv")};
    std::set<std::string> run_ids;
    for (std::size_t path = 0; path < 2; ++path) {
        ASSERT_GE(parts[path].size(), 3U) << result.out;
        std::uint64_t next_sequence = 0;
        std::size_t total = 0;
        for (std::size_t i = 0; i < parts[path].size(); ++i) {
            const auto file = store::read_capture_file(parts[path][i]);
            ASSERT_FALSE(file.pulses.empty()) << parts[path][i];
            ASSERT_NE(file.end_record(), nullptr) << parts[path][i] << " was not closed cleanly";
            if (i > 0) {
                // No gap and no duplicate at a seam, on either path.
                EXPECT_EQ(file.pulses.front().sequence, next_sequence) << parts[path][i];
                EXPECT_EQ(file.meta["rotation"]["previous_file"], parts[path][i - 1]);
            }
            next_sequence = file.pulses.back().sequence + 1;
            total += file.pulses.size();
            EXPECT_EQ(file.meta["rotation"]["index"], i);
            run_ids.insert(file.meta["rotation"]["run_id"].get<std::string>());
            EXPECT_EQ(file.meta["dual"]["path"], path == 0 ? "A" : "B");
            EXPECT_EQ(file.meta["dual"]["peer_file"], patterns[1 - path]);
        }
        // 3.5 s of 20 pulses a second on each path, all of them once.
        EXPECT_NEAR(static_cast<double>(total), 70.0, 2.0) << "path " << path;
        EXPECT_TRUE(
            contains(result.out, fmt::format("written to {} files, {} … {}", parts[path].size(),
                                             parts[path].front(), parts[path].back())))
            << result.out;
    }
    EXPECT_EQ(run_ids.size(), 1U) << "one run id in both paths' parts";
}

TEST(DualRunLifecycle, KeepsOneLivePrometheusFileWithAPathLabelOnEverySeries) {
    TempDir dir;
    const auto prom = dir.file("ppsbench.prom");
    const auto result =
        run_ppsbench(two_paths({"--duration", "2.5s", "--label", "pair", "-o", dir.file("d.csv"),
                                "--prometheus", prom, "--prometheus-interval", "1s", "--quiet"}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto text = testing::read_text(prom);
    // One family each, with a sample per path and window.
    EXPECT_EQ(count_of(text, "# TYPE ppsbench_live_pulses gauge"), 1U) << text;
    const std::array<std::string, 2> files{dir.file("d-1.csv"), dir.file("d-2.csv")};
    for (std::size_t path = 0; path < 2; ++path) {
        const auto file = store::read_capture_file(files[path]);
        const std::string name = path == 0 ? "A" : "B";
        // Labels in the one writer's order (by name): path between kernel and run.
        std::smatch match;
        const std::regex run_pulses(
            fmt::format(R"(ppsbench_live_pulses\{{[^}}]*path="{}",run="pair",simulated="true",)"
                        R"(source="{}",window="run"\}} (\d+))",
                        name, path == 0 ? "sim:hardirq" : "sim:threaded"));
        ASSERT_TRUE(std::regex_search(text, match, run_pulses)) << text;
        EXPECT_EQ(std::stoul(match[1]), file.pulses.size()) << name;
    }
    // No series without its path: every sample line names one.
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (!line.empty() && line.front() != '#') {
            EXPECT_TRUE(contains(line, "path=\"A\"") || contains(line, "path=\"B\"")) << line;
        }
    }
}

// Each path's capture thread on its own CPU (--cpu in --source order), recorded in each file.
TEST(DualRunLifecycle, GivesEachPathItsOwnCpuInSourceOrder) {
    cpu_set_t allowed;
    ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    std::vector<int> cpus;
    for (int cpu = 0; cpu < CPU_SETSIZE && cpus.size() < 2; ++cpu) {
        if (CPU_ISSET(cpu, &allowed)) {
            cpus.push_back(cpu);
        }
    }
    if (cpus.size() < 2) {
        GTEST_SKIP() << "needs two CPUs this process may run on";
    }
    TempDir dir;
    const auto result = run_ppsbench({"run", "--source", "sim:hardirq", "--source", "sim:threaded",
                                      "--count", "20", "--cpu", std::to_string(cpus[1]), "--cpu",
                                      std::to_string(cpus[0]), "-o", dir.file("cpu.csv")});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto a = store::read_capture_file(dir.file("cpu-1.csv"));
    const auto b = store::read_capture_file(dir.file("cpu-2.csv"));
    EXPECT_EQ(a.meta["capture_process"]["cpu"], cpus[1]);
    EXPECT_EQ(b.meta["capture_process"]["cpu"], cpus[0]);
}

TEST(DualRunLifecycle, GivesEachPathItsOwnPriorityInSourceOrder) {
    TempDir dir;
    const auto result =
        run_ppsbench({"run", "--source", "sim:hardirq", "--source", "sim:threaded", "--count", "20",
                      "--rt-priority", "10", "--rt-priority", "20", "-o", dir.file("rt.csv")});
    if (result.exit_code == 2 && contains(result.err, "cannot switch to SCHED_FIFO")) {
        GTEST_SKIP() << "needs root or CAP_SYS_NICE: " << result.err;
    }
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto a = store::read_capture_file(dir.file("rt-1.csv"));
    const auto b = store::read_capture_file(dir.file("rt-2.csv"));
    EXPECT_EQ(a.meta["capture_process"]["sched_fifo_priority"], 10);
    EXPECT_EQ(b.meta["capture_process"]["sched_fifo_priority"], 20);
}

// Not only recorded: while the run goes on, its two capture threads are each allowed only their
// own CPU (the kernel's view, /proc/PID/task/*/status), and the main thread keeps the rest.
TEST(DualRunLifecycle, EachPathsCaptureThreadRunsOnlyOnItsOwnCpu) {
    cpu_set_t allowed;
    ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    if (!CPU_ISSET(0, &allowed) || !CPU_ISSET(1, &allowed)) {
        GTEST_SKIP() << "needs CPUs 0 and 1";
    }
    TempDir dir;
    const std::string script = fmt::format(
        "'{}' run -s sim:hardirq -s sim:threaded --pace realtime --period 50ms --duration 2s "
        "--cpu 1 --cpu 0 --quiet -o '{}' >/dev/null & pid=$!; sleep 1; "
        "grep -h Cpus_allowed_list /proc/$pid/task/*/status; wait $pid",
        PPSBENCH_BINARY, dir.file("t.csv"));
    const auto result = testing::run_program({"/bin/sh", "-c", script});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::multiset<std::string> lists;
    std::istringstream lines(result.out);
    for (std::string line; std::getline(lines, line);) {
        lists.insert(line.substr(line.find_last_of(" \t") + 1));
    }
    EXPECT_EQ(lists.count("1"), 1U) << result.out << "path A's thread on CPU 1 alone";
    EXPECT_EQ(lists.count("0"), 1U) << result.out << "path B's thread on CPU 0 alone";
    EXPECT_GE(lists.size(), 3U) << result.out;
}

TEST(DualRunLifecycle, RefusesPerPathSettingsThatCannotApplyAndLeavesNoFiles) {
    TempDir dir;
    auto result = run_ppsbench({"run", "--source", "sim:hardirq", "--count", "5", "--cpu", "0",
                                "--cpu", "1", "-o", dir.file("one.csv")});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "--cpu given 2 times for one --source: give it once"))
        << result.err;
    result = run_ppsbench({"run", "--source", "sim:hardirq", "--source", "sim:threaded", "--count",
                           "5", "--rt-priority", "10", "--rt-priority", "20", "--rt-priority", "30",
                           "-o", dir.file("three.csv")});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "--rt-priority given 3 times for two --source")) << result.err;
    EXPECT_TRUE(contains(result.err, "once per --source (in --source order)")) << result.err;
    // A CPU that does not exist: refused on path B's thread before either path captures.
    result = run_ppsbench({"run", "--source", "sim:hardirq", "--source", "sim:threaded", "--count",
                           "5", "--cpu", "0", "--cpu", "4095", "-o", dir.file("bad.csv")});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "path B (sim:threaded): --cpu 4095: no such CPU"))
        << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_TRUE(files_ending(dir.path(), ".csv").empty());
}

// Without -o a pair's names are claimed together (session::claim_default_output_pair): runs
// started in the same second each keep their own two files.
TEST(DualRunLifecycle, DefaultNamesOfRunsInTheSameSecondNeverCollide) {
    TempDir dir;
    const auto previous = std::filesystem::current_path();
    std::filesystem::current_path(dir.path());
    std::vector<testing::CommandResult> results;
    for (int i = 0; i < 3; ++i) {
        results.push_back(run_ppsbench(
            {"run", "--source", "sim:hardirq", "--source", "sim:threaded", "--count", "5"}));
    }
    std::filesystem::current_path(previous);
    for (const auto& result : results) {
        ASSERT_EQ(result.exit_code, 0) << result.err;
    }
    const auto a = files_ending(dir.path(), "-1.csv");
    const auto b = files_ending(dir.path(), "-2.csv");
    ASSERT_EQ(a.size(), 3U);
    ASSERT_EQ(b.size(), 3U);
    for (std::size_t i = 0; i < 3; ++i) {
        const auto name = std::filesystem::path(a[i]).filename().string();
        EXPECT_TRUE(std::regex_match(name, std::regex(R"(ppsbench-\d{8}T\d{6}\.\d{3}Z-1\.csv)")))
            << name;
        // Each pair shares its time; each file holds its own run's 5 pulses, linked to its peer.
        EXPECT_EQ(a[i].substr(0, a[i].size() - 6), b[i].substr(0, b[i].size() - 6));
        const auto file_a = store::read_capture_file(a[i]);
        EXPECT_EQ(file_a.pulses.size(), 5U);
        EXPECT_EQ(file_a.meta["dual"]["peer_file"],
                  std::filesystem::path(b[i]).filename().string());
        EXPECT_TRUE(contains(results[i].out,
                             "written to " + std::filesystem::path(a[i]).filename().string()))
            << results[i].out;
    }
}

}  // namespace
}  // namespace ppsbench
