// SPDX-License-Identifier: GPL-2.0-or-later
// Runs the built ppsbench binary: exit codes, key lines, JSON, the live machine, bad usage.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "fixtures.hpp"

namespace ppsbench::sysinfo {
namespace {

using testing::fixture;
using ::testing::HasSubstr;
using ::testing::Not;

struct Result {
    int exit_code = -1;
    std::string out;  // stdout, or stdout and stderr interleaved with merge_stderr
};

Result run(const std::string& args, bool merge_stderr = false) {
    const std::string command = std::string("'") + PPSBENCH_BINARY + "' " + args +
                                (merge_stderr ? " 2>&1" : " 2>/dev/null");
    Result result;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) {
        return result;
    }
    char buffer[4096];
    while (const auto n = fread(buffer, 1, sizeof buffer, pipe)) {
        result.out.append(buffer, n);
    }
    const int status = pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

std::string sysroot(const std::string& name) {
    return "--pulse-wait 0 --sysroot '" + fixture(name).string() + "'";
}

TEST(DoctorCli, StockPiExitsZeroWithHardIrqVerdict) {
    const auto result = run("doctor " + sysroot("rpi-stock"));
    EXPECT_EQ(result.exit_code, 0) << result.out;
    EXPECT_THAT(result.out, HasSubstr("ppsbench doctor: 6.1.0-rpi7-rpi-v8 PREEMPT, PPS IRQ hard"));
    EXPECT_THAT(result.out, HasSubstr("[ OK ] pps-timestamp-context:"));
    EXPECT_THAT(result.out, HasSubstr("[WARN] cpufreq:"));
    EXPECT_THAT(result.out, Not(HasSubstr("[FAIL]")));
    EXPECT_THAT(result.out, HasSubstr("0 fail, 1 warn, 7 ok"));
}

// Issue 12: a healthy PREEMPT_RT snapshot with the split handler failed with "[FAIL] pps-pulses:
// no pulse in 1.2 s" because doctor waited for pulses on a copied tree. A snapshot cannot
// pulse: no wait, and the check says it was not checked.
TEST(DoctorCli, ASnapshotIsNotWaitedOnForPulses) {
    const auto result =
        run("doctor /dev/pps0 --sysroot '" + fixture("rpi-rt-split").string() + "'");
    EXPECT_EQ(result.exit_code, 0) << result.out;
    EXPECT_THAT(result.out, HasSubstr("pps-pulses: not checked: a snapshot cannot pulse"));
    EXPECT_THAT(result.out, Not(HasSubstr("[FAIL]")));
}

TEST(DoctorCli, RtOldHandlerExitsOneNamingTheThread) {
    const auto result = run("doctor /dev/pps0 " + sysroot("rpi-rt-old"));
    EXPECT_EQ(result.exit_code, 1) << result.out;
    EXPECT_THAT(result.out, HasSubstr("[FAIL] pps-timestamp-context: PPS timestamps are taken in "
                                      "the thread irq/41-pps@12.-1"));
    EXPECT_THAT(result.out, HasSubstr("IRQ thread        irq/41-pps@12.-1 PID 98 SCHED_FIFO 50"));
    EXPECT_THAT(result.out, HasSubstr("fix: Boot a kernel whose pps-gpio has the split handler"));
}

TEST(DoctorCli, RtSplitHandlerExitsZero) {
    const auto result = run("doctor " + sysroot("rpi-rt-split"));
    EXPECT_EQ(result.exit_code, 0) << result.out;
    EXPECT_THAT(result.out,
                HasSubstr("[ OK ] pps-timestamp-context: pps-gpio has the split handler"));
}

TEST(DoctorCli, ThreadirqsX86ExitsOne) {
    const auto result = run("doctor " + sysroot("x86-threadirqs"));
    EXPECT_EQ(result.exit_code, 1) << result.out;
    EXPECT_THAT(result.out, HasSubstr("[FAIL] pps-timestamp-context:"));
    EXPECT_THAT(result.out, HasSubstr("[WARN] clocksource:"));
}

TEST(DoctorCli, JsonIsParseableAndMatchesTheExitCode) {
    const auto result = run("doctor --format json " + sysroot("rpi-rt-old"));
    EXPECT_EQ(result.exit_code, 1);
    const auto json = nlohmann::json::parse(result.out);
    EXPECT_EQ(json.at("label"), "6.1.0-27-rt-arm64 PREEMPT_RT, PPS IRQ threaded");
    EXPECT_EQ(json.at("timestamp_context"), "thread");
    EXPECT_EQ(json.at("summary").at("fail"), 1);
    EXPECT_EQ(json.at("system").at("pps").at("irq").at("thread").at("pid"), 98);
    bool found = false;
    for (const auto& verdict : json.at("verdicts")) {
        if (verdict.at("check") == "pps-timestamp-context") {
            EXPECT_EQ(verdict.at("severity"), "fail");
            found = true;
        }
    }
    EXPECT_TRUE(found);
}

// Issue 24: a mounted Raspberry Pi OS image failed for a missing pps-gpio overlay and a stopped
// chronyd although its boot files had the overlay and an image runs nothing.
TEST(DoctorCli, AnImageIsReadAsAnImage) {
    const auto result = run("doctor --sysroot '" + fixture("rpi-image").string() + "'");
    EXPECT_EQ(result.exit_code, 0) << result.out;
    EXPECT_THAT(result.out, HasSubstr("[ OK ] pps-device: the image's /boot/firmware/config.txt "
                                      "loads `dtoverlay=pps-gpio,gpiopin=18`"));
    EXPECT_THAT(result.out, HasSubstr("[ ?  ] running-system: cannot tell from an image"));
    EXPECT_THAT(result.out, HasSubstr("boot options      threadirqs;"));
    EXPECT_THAT(result.out, HasSubstr("/boot/firmware/cmdline.txt)"));
    EXPECT_THAT(result.out, Not(HasSubstr("not set: threadirqs")));
    EXPECT_THAT(result.out, Not(HasSubstr("[FAIL]")));
    EXPECT_THAT(result.out, Not(HasSubstr("not running")));
}

TEST(DoctorCli, NoPpsFixtureFailsClearly) {
    const auto result = run("doctor " + sysroot("no-pps"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_THAT(result.out, HasSubstr("[FAIL] pps-device: no PPS device"));
}

TEST(DoctorCli, LiveMachineAnswersWithoutCrashing) {
    // CI machines have no PPS: a clear fail verdict, exit 1. With a PPS device present (a lab
    // machine) the answer may be 0 or 1, but never a crash or a usage error.
    const auto result = run("doctor --pulse-wait 0");
    ASSERT_TRUE(result.exit_code == 0 || result.exit_code == 1) << result.out;
    EXPECT_THAT(result.out, HasSubstr("ppsbench doctor: "));
    EXPECT_THAT(result.out, HasSubstr("Checklist"));
    std::error_code ec;
    const bool has_pps = std::filesystem::exists("/sys/class/pps", ec) &&
                         !std::filesystem::is_empty("/sys/class/pps", ec);
    if (!has_pps) {
        EXPECT_EQ(result.exit_code, 1);
        EXPECT_THAT(result.out, HasSubstr("[FAIL] pps-device: no PPS device"));
    }
    const auto json = run("doctor --pulse-wait 0 --format json");
    EXPECT_TRUE(nlohmann::json::accept(json.out)) << json.out;
}

TEST(DoctorCli, BadUsageIsExitTwoWithOneLine) {
    for (const std::string args : {"doctor --format yaml", "doctor --bogus", "doctor /dev/ttyS0",
                                   "doctor --sysroot /nonexistent/dir", "doctor --pulse-wait x",
                                   "doctor /dev/pps0 /dev/pps1"}) {
        const auto result = run(args, true);
        EXPECT_EQ(result.exit_code, 2) << args << ": " << result.out;
        EXPECT_THAT(result.out, HasSubstr("ppsbench")) << args;
        EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 1)
            << args << ": " << result.out;
    }
}

TEST(DoctorCli, HelpDescribesTheCommand) {
    const auto result = run("doctor --help");
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_THAT(result.out, HasSubstr("Usage: ppsbench doctor [DEVICE]"));
    EXPECT_THAT(result.out, HasSubstr("--sysroot"));
    EXPECT_THAT(result.out, HasSubstr("--format"));
    EXPECT_THAT(result.out, HasSubstr("Exit status"));
    EXPECT_THAT(run("--help").out, HasSubstr("doctor"));
}

}  // namespace
}  // namespace ppsbench::sysinfo
