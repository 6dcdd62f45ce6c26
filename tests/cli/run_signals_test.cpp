// SPDX-License-Identifier: GPL-2.0-or-later
// The signals and limits a long capture meets besides Ctrl-C, on the real binary: an ssh session
// that drops (SIGHUP), nohup, a file-size limit (SIGXFSZ), and the worker threads that must leave
// the stop signals to the capture thread.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>

#include "background_run.hpp"
#include "cli.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench {
namespace {

using testing::BackgroundRun;
using testing::contains;
using testing::TempDir;

std::vector<std::string> paced_run(const std::string& path) {
    return {"run",  "-s",         "sim:hardirq", "--pace", "realtime", "--period",
            "10ms", "--duration", "1h",          "-o",     path};
}

TEST(RunSignals, AHangupEndsTheCaptureCleanlyWithReasonHangup) {
    TempDir dir;
    const auto path = dir.file("ssh-dropped.csv");
    BackgroundRun run(paced_run(path));
    ASSERT_TRUE(run.wait_for_file(path, 2000)) << run.wait().err;
    run.signal(SIGHUP);
    const auto result = run.wait();
    EXPECT_EQ(result.exit_code, 0)
        << "killed by SIGHUP instead of stopping cleanly: " << result.err;
    const auto file = store::read_capture_file(path);
    EXPECT_TRUE(file.warnings.empty());
    ASSERT_NE(file.end_record(), nullptr) << "no end record: report would call it a crash";
    EXPECT_EQ(file.end_record()->at("stop_reason"), "hangup");
    EXPECT_EQ(file.end_record()->at("signal"), SIGHUP);
    EXPECT_EQ(file.end_record()->at("pulses"), file.pulses.size());
    EXPECT_TRUE(contains(result.out, "(hangup) written to")) << result.out;
}

TEST(RunSignals, AHangupAlreadyIgnoredAsUnderNohupStaysIgnored) {
    TempDir dir;
    const auto path = dir.file("nohup.csv");
    BackgroundRun run(paced_run(path), {.ignore_hangup = true});
    ASSERT_TRUE(run.wait_for_file(path, 2000)) << run.wait().err;
    run.signal(SIGHUP);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_TRUE(run.running()) << "a SIGHUP that nohup ignored ended the run";
    run.signal(SIGTERM);
    const auto result = run.wait();
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const auto file = store::read_capture_file(path);
    ASSERT_NE(file.end_record(), nullptr);
    EXPECT_EQ(file.end_record()->at("stop_reason"), "interrupted");
    EXPECT_EQ(file.end_record()->at("signal"), SIGTERM);
}

// `ulimit -f` in KiB (bash): the run meets EFBIG long before its 100000 pulses.
TEST(RunSignals, AFileSizeLimitEndsTheRunWithExit1AndKeepsEveryCompleteLine) {
    TempDir dir;
    const auto path = dir.file("limited.csv");
    const auto result =
        testing::run_program({"/bin/bash", "-c",
                              std::string("ulimit -f 16 && exec '") + PPSBENCH_BINARY +
                                  "' run -s sim:hardirq --count 100000 --quiet -o '" + path + "'"});
    EXPECT_EQ(result.exit_code, 1) << "SIGXFSZ kills with 153; " << result.err;
    EXPECT_TRUE(contains(result.err, "the file-size limit (ulimit -f) was reached")) << result.err;
    EXPECT_TRUE(contains(result.err, "raise the limit or use --rotate")) << result.err;
    const auto size = std::filesystem::file_size(path);
    EXPECT_LE(size, 16U * 1024U);
    EXPECT_GT(size, 8U * 1024U) << "the lines up to the limit are kept";
    const std::string text = testing::read_text(path);
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n') << "a torn last line";
    const auto file = store::read_capture_file(path);
    EXPECT_TRUE(file.warnings.empty()) << file.warnings.front();
    ASSERT_FALSE(file.pulses.empty());
    EXPECT_EQ(file.pulses.back().sequence + 1 - file.pulses.front().sequence, file.pulses.size())
        << "every pulse up to the limit, none missing";
    std::smatch kept;
    ASSERT_TRUE(std::regex_search(result.err, kept, std::regex(R"(\((\d+) pulses at most\))")))
        << result.err;
    EXPECT_EQ(std::stoull(kept[1]), file.pulses.size()) << "the message counts what is kept";
}

// SigBlk in /proc/PID/task/TID/status, as a bit mask of signal numbers minus one.
unsigned long long blocked_signals(const std::filesystem::path& task) {
    std::ifstream status(task / "status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.starts_with("SigBlk:")) {
            return std::stoull(line.substr(7), nullptr, 16);
        }
    }
    return 0;
}

// Only the capture thread may take Ctrl-C, SIGTERM or SIGHUP: that interrupts its wait at once.
// Here the live metrics worker and the chrony sampler run beside it (--chrony on samples even
// without a chronyd; the sampler's thread is what matters).
TEST(RunSignals, EveryWorkerThreadBlocksTheStopSignals) {
    TempDir dir;
    const auto path = dir.file("threads.csv");
    auto args = paced_run(path);
    args.insert(args.end(), {"--prometheus", dir.file("live.prom"), "--chrony", "on",
                             "--chrony-interval", "1s", "--quiet"});
    BackgroundRun run(args);
    ASSERT_TRUE(run.wait_for_file(path, 2000)) << run.wait().err;
    const auto stop_mask =
        (1ULL << (SIGINT - 1)) | (1ULL << (SIGTERM - 1)) | (1ULL << (SIGHUP - 1));
    const std::filesystem::path tasks = "/proc/" + std::to_string(run.pid()) + "/task";
    std::size_t workers = 0;
    for (const auto& task : std::filesystem::directory_iterator(tasks)) {
        const bool capture_thread = task.path().filename() == std::to_string(run.pid());
        const auto blocked = blocked_signals(task.path()) & stop_mask;
        if (capture_thread) {
            EXPECT_EQ(blocked, 0U) << "the capture thread must take the stop signals";
        } else {
            ++workers;
            EXPECT_EQ(blocked, stop_mask) << "worker thread " << task.path().filename();
        }
    }
    EXPECT_GE(workers, 2U) << "the live metrics and chrony workers";
    run.signal(SIGINT);
    const auto result = run.wait();
    EXPECT_EQ(result.exit_code, 0) << result.err;
}

}  // namespace
}  // namespace ppsbench
