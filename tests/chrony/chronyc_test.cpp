// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/chronyc.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "chronyd_fixture.hpp"
#include "ppsbench/core/process.hpp"

namespace ppsbench::chrony {
namespace {

using namespace std::chrono_literals;

TEST(RunProcess, CapturesBothStreamsAndExitCode) {
    const auto r = core::run_process({"sh", "-c", "echo out; echo err >&2; exit 3"}, 2s);
    EXPECT_EQ(r.spawn_error, 0);
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.out, "out\n");
    EXPECT_EQ(r.err, "err\n");
}

TEST(RunProcess, RunsInTheCLocale) {
    const auto r = core::run_process({"sh", "-c", "echo $LC_ALL"}, 2s);
    EXPECT_EQ(r.out, "C\n");
}

TEST(RunProcess, KillsAChildThatOverrunsItsDeadline) {
    const auto start = std::chrono::steady_clock::now();
    const auto r = core::run_process({"sleep", "10"}, 200ms);
    EXPECT_TRUE(r.timed_out);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
}

TEST(RunProcess, MissingProgramIsASpawnError) {
    EXPECT_EQ(core::run_process({"/nonexistent/program"}, 1s).spawn_error, ENOENT);
    EXPECT_EQ(core::run_process({"ppsbench-no-such-program"}, 1s).spawn_error, ENOENT);
}

TEST(RunChronyc, NoDaemonBehindTheSocket) {
    testing::TempDir empty;
    ChronycOptions o;
    o.socket = (empty.path() / "chronyd.sock").string();
    const auto r = run_chronyc(o, "tracking");
    if (r.outcome == ChronycOutcome::missing) {
        GTEST_SKIP() << "chronyc is not installed";
    }
    EXPECT_EQ(r.outcome, ChronycOutcome::no_daemon) << r.detail;
    EXPECT_EQ(r.detail, "Could not open connection to daemon");
}

}  // namespace
}  // namespace ppsbench::chrony
