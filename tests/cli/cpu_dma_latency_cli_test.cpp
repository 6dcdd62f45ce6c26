// SPDX-License-Identifier: GPL-2.0-or-later
// run --cpu-dma-latency end to end: the hold is recorded and reported, bad values and a device
// the user may not open are refused before any file exists.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "cli.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

constexpr const char* device = "/dev/cpu_dma_latency";

TEST(CpuDmaLatency, TheHoldIsRecordedAndShownByReportVerbose) {
    if (::access(device, R_OK | W_OK) != 0) {
        GTEST_SKIP() << device << " is absent or not writable here";
    }
    TempDir dir;
    const auto path = dir.file("held.csv");
    const auto run = run_ppsbench({"run", "--source", "sim:hardirq", "--count", "20",
                                   "--cpu-dma-latency", "20us", "-o", path});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto file = store::read_capture_file(path);
    EXPECT_EQ(file.meta.at("capture_process").at("cpu_dma_latency_us"), 20);

    const auto csv = run_ppsbench({"report", path, "--verbose", "--format", "csv"});
    ASSERT_EQ(csv.exit_code, 0) << csv.err;
    EXPECT_TRUE(contains(csv.out, "cpu_dma_latency_ns")) << csv.out;
    EXPECT_TRUE(contains(csv.out, ",20000\n")) << "a number in ns, no unit text: " << csv.out;
    const auto text = run_ppsbench({"report", path, "--verbose"});
    EXPECT_TRUE(contains(text.out, "CPU wake-up limit held")) << text.out;

    const auto plain = dir.file("plain.csv");
    ASSERT_EQ(
        run_ppsbench({"run", "--source", "sim:hardirq", "--count", "20", "-o", plain}).exit_code,
        0);
    EXPECT_FALSE(contains(run_ppsbench({"report", plain, "--verbose"}).out, "wake-up limit"))
        << "no column when no run held a limit";
}

TEST(CpuDmaLatency, ValuesTheKernelWouldMisreadAreRefusedByRunAndLatency) {
    TempDir dir;
    const auto out = dir.file("x.csv");
    for (const auto& [value, reason] : std::vector<std::pair<std::string, std::string>>{
             {"10", "'10' has no unit"}, {"-1us", "without a sign"}, {"5s", "use 0us to 1s"}}) {
        const auto run =
            run_ppsbench({"run", "--source", "sim:hardirq", "--cpu-dma-latency", value, "-o", out});
        EXPECT_EQ(run.exit_code, 2) << run.err;
        EXPECT_TRUE(contains(run.err, "ppsbench run: --cpu-dma-latency")) << run.err;
        EXPECT_TRUE(contains(run.err, reason)) << run.err;
        const auto latency =
            run_ppsbench({"latency", "--drive", "gpiochip0:17", "--sense", "gpio:gpiochip0:27",
                          "--cpu-dma-latency", value, "-o", out});
        EXPECT_EQ(latency.exit_code, 2) << latency.err;
        EXPECT_TRUE(contains(latency.err, reason)) << latency.err;
    }
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(CpuDmaLatency, WithoutPermissionTheRunStopsBeforeItStartsNamingTheFix) {
    if (::access("/usr/bin/setpriv", X_OK) != 0 || ::access(device, F_OK) != 0 ||
        ::geteuid() != 0) {
        GTEST_SKIP() << "needs root, setpriv (util-linux) and " << device;
    }
    TempDir dir;
    ::chmod(dir.path().c_str(), 0777);  // so -o is writable for the user the run drops to
    const auto out = dir.file("denied.csv");
    const auto result = testing::run_program(
        {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", PPSBENCH_BINARY,
         "run", "--source", "sim:hardirq", "--count", "5", "--cpu-dma-latency", "0", "-o", out});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_TRUE(contains(result.err,
                         "--cpu-dma-latency 0us: cannot open /dev/cpu_dma_latency (Permission "
                         "denied); it is root-only"))
        << result.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << "refused before the file is created";
}

}  // namespace
}  // namespace ppsbench
