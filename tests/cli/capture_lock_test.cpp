// SPDX-License-Identifier: GPL-2.0-or-later
// A capture is locked while it is written: a second run on the same path, even with --force,
// cannot replace it, and a report of it says the run is still going. The built binary, two
// real processes on one file.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <thread>

#include "background_run.hpp"
#include "cli.hpp"
#include "ppsbench/core/clock.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench {
namespace {

using testing::BackgroundRun;
using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

std::vector<std::string> quiet_paced_run(const std::string& path) {
    return {"run",  "-s",         "sim:hardirq", "--pace",  "realtime", "--period",
            "10ms", "--duration", "1h",          "--quiet", "-o",       path};
}

TEST(CaptureLock, ASecondRunOnTheSamePathIsRefusedEvenWithForceAndNamesTheHolder) {
    TempDir dir;
    const auto path = dir.file("lock.csv");
    BackgroundRun first(quiet_paced_run(path));
    ASSERT_TRUE(first.wait_for_file(path, 2000)) << first.wait().err;

    const auto second =
        run_ppsbench({"run", "-s", "sim:hardirq", "--count", "10", "--force", "-o", path});
    EXPECT_EQ(second.exit_code, 2) << second.err;
    EXPECT_TRUE(
        contains(second.err, path + ": pid " + std::to_string(first.pid()) + " (ppsbench run"))
        << second.err;
    EXPECT_TRUE(contains(second.err, "is still writing this capture")) << second.err;

    // The first run never noticed: its file is whole, one run's lines, closed cleanly.
    first.signal(SIGINT);
    const auto result = first.wait();
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const auto file = store::read_capture_file(path);
    EXPECT_TRUE(file.warnings.empty());
    ASSERT_NE(file.end_record(), nullptr);
    EXPECT_EQ(file.end_record()->at("pulses"), file.pulses.size());
    EXPECT_EQ(file.pulses.back().sequence + 1 - file.pulses.front().sequence, file.pulses.size());

    // Once that run has ended, --force replaces its file as it always did.
    EXPECT_EQ(run_ppsbench({"run", "-s", "sim:hardirq", "--count", "10", "--force", "-o", path})
                  .exit_code,
              0);
    EXPECT_EQ(store::read_capture_file(path).pulses.size(), 10U);
}

TEST(CaptureLock, AReportOfACaptureStillBeingWrittenSaysSoAndReadsWhatIsComplete) {
    TempDir dir;
    const auto path = dir.file("growing.csv");
    BackgroundRun run(quiet_paced_run(path));
    ASSERT_TRUE(run.wait_for_file(path, 4000)) << run.wait().err;

    const auto report = run_ppsbench({"report", "--format", "json", path});
    EXPECT_EQ(report.exit_code, 0) << report.err;
    EXPECT_TRUE(
        contains(report.err, path + ": still being written by pid " + std::to_string(run.pid())))
        << report.err;
    EXPECT_FALSE(contains(report.err, "crash or power cut")) << report.err;
    EXPECT_TRUE(contains(report.out, "\"pulses\"")) << "the figures of what is complete";

    // The report's look held nothing up: the run goes on and ends cleanly.
    EXPECT_TRUE(run.running());
    run.signal(SIGTERM);
    EXPECT_EQ(run.wait().exit_code, 0);
    const auto after = run_ppsbench({"report", path});
    EXPECT_EQ(after.exit_code, 0) << after.err;
    EXPECT_FALSE(contains(after.err, "still being written")) << after.err;
}

// Seams fall on multiples of the interval since the epoch: wait until `offset` into one.
void sleep_until_into_interval(std::chrono::milliseconds interval,
                               std::chrono::milliseconds offset) {
    const std::int64_t step = std::chrono::nanoseconds(interval).count();
    const std::int64_t now = core::realtime_now_ns();
    const std::int64_t target = (now / step + 1) * step + std::chrono::nanoseconds(offset).count();
    std::this_thread::sleep_for(std::chrono::nanoseconds(target - now));
}

TEST(CaptureLock, EveryRotatedPartIsLockedWhileWrittenAndCarriesTheRunIdAndItsPartNumber) {
    TempDir dir;
    BackgroundRun run({"run", "-s", "sim:hardirq", "--pace", "realtime", "--period", "50ms",
                       "--duration", "1h", "--quiet", "--rotate", "2s", "-o",
                       dir.file("part-%Y%m%dT%H%M%S.csv")});
    // Well inside an interval after at least one seam: one part closed, one being written.
    // (A run that starts just before a seam keeps its first part until the next one.)
    std::vector<std::string> parts;
    for (int seams = 0; seams < 3 && parts.size() < 2; ++seams) {
        sleep_until_into_interval(std::chrono::seconds{2}, std::chrono::milliseconds{700});
        parts.clear();
        for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
            parts.push_back(entry.path().string());
        }
        std::sort(parts.begin(), parts.end());
    }
    ASSERT_GE(parts.size(), 2U);
    const auto refused =
        run_ppsbench({"run", "-s", "sim:hardirq", "--count", "5", "--force", "-o", parts.back()});
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_TRUE(contains(refused.err, "is still writing this capture")) << refused.err;
    EXPECT_TRUE(store::read_capture_file(parts.back()).writer.has_value());
    EXPECT_FALSE(store::read_capture_file(parts.front()).writer.has_value())
        << "a part closed at its seam is no longer locked";

    run.signal(SIGINT);
    EXPECT_EQ(run.wait().exit_code, 0);
    std::set<std::string> run_ids;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto file = store::read_capture_file(parts[i]);
        ASSERT_TRUE(file.run_meta.rotation.has_value()) << parts[i];
        EXPECT_EQ(file.run_meta.rotation->index, i) << parts[i];
        EXPECT_TRUE(std::regex_match(file.run_meta.rotation->run_id, std::regex("[0-9a-f]{32}")))
            << file.run_meta.rotation->run_id;
        run_ids.insert(file.run_meta.rotation->run_id);
    }
    EXPECT_EQ(run_ids.size(), 1U) << "one run, one id in every part";
}

}  // namespace
}  // namespace ppsbench
