// SPDX-License-Identifier: GPL-2.0-or-later
// The CPU wake-up latency hold (--cpu-dma-latency): what is written, for how long, and what a
// user is told when the device cannot be used.
#include "ppsbench/capture/cpu_dma_latency.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include "cli.hpp"
#include "ppsbench/capture/realtime.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {
namespace {

using testing::contains;

std::string parse_error_of(std::string_view text) {
    try {
        parse_cpu_dma_latency(text, "--cpu-dma-latency");
    } catch (const core::UsageError& e) {
        return e.what();
    }
    return "(accepted)";
}

TEST(CpuDmaLatencyValue, IsATimeInWholeMicrosecondsOrABareZero) {
    EXPECT_EQ(parse_cpu_dma_latency("0", "--cpu-dma-latency"), 0U);
    EXPECT_EQ(parse_cpu_dma_latency("0us", "--cpu-dma-latency"), 0U);
    EXPECT_EQ(parse_cpu_dma_latency("0ms", "--cpu-dma-latency"), 0U);
    EXPECT_EQ(parse_cpu_dma_latency("10us", "--cpu-dma-latency"), 10U);
    EXPECT_EQ(parse_cpu_dma_latency("2ms", "--cpu-dma-latency"), 2000U);
    EXPECT_EQ(parse_cpu_dma_latency("1s", "--cpu-dma-latency"), max_cpu_dma_latency_us);
}

TEST(CpuDmaLatencyValue, RefusesWhatTheKernelWouldMisreadOrNotHold) {
    EXPECT_TRUE(contains(parse_error_of("10"), "'10' has no unit")) << parse_error_of("10");
    EXPECT_TRUE(contains(parse_error_of("-5us"), "--cpu-dma-latency -5us: give a wake-up latency"))
        << parse_error_of("-5us");
    EXPECT_TRUE(contains(parse_error_of("-0"), "without a sign")) << parse_error_of("-0");
    EXPECT_TRUE(contains(parse_error_of("1500ns"), "whole microseconds; use 1us"))
        << parse_error_of("1500ns");
    EXPECT_TRUE(contains(parse_error_of("2s"), "use 0us to 1s")) << parse_error_of("2s");
    EXPECT_TRUE(contains(parse_error_of("4294967297us"), "use 0us to 1s"))
        << "no wrap-around past 32 bits: " << parse_error_of("4294967297us");
    EXPECT_TRUE(contains(parse_error_of("0parsecs"), "'0parsecs' is not a duration"))
        << parse_error_of("0parsecs");
    EXPECT_TRUE(contains(parse_error_of("fast"), "is not a duration")) << parse_error_of("fast");
}

std::string file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Whether this process has `path` open (its /proc/self/fd links).
bool holds_open(const std::string& path) {
    const auto wanted = std::filesystem::canonical(path);
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
        std::error_code ec;
        if (std::filesystem::read_symlink(entry.path(), ec) == wanted) {
            return true;
        }
    }
    return false;
}

// A regular file stands in for the device: it keeps exactly the bytes written, which the device
// would not show.
TEST(CpuDmaLatencyHold, WritesOneBinary32BitIntegerToAStandIn) {
    testing::TempDir dir;
    const auto stand_in = dir.file("cpu_dma_latency");
    testing::write_text(stand_in, "");
    {
        const CpuDmaLatencyHold hold(20, stand_in);
        const auto bytes = file_bytes(stand_in);
        ASSERT_EQ(bytes.size(), 4U) << "any other length is parsed by the kernel as hex text";
        std::int32_t value = -1;
        std::memcpy(&value, bytes.data(), sizeof value);
        EXPECT_EQ(value, 20) << "native byte order, as the kernel's copy_from_user reads it";
    }
}

TEST(CpuDmaLatencyHold, HoldsTheFileOpenUntilItEnds) {
    testing::TempDir dir;
    const auto stand_in = dir.file("cpu_dma_latency");
    testing::write_text(stand_in, "");
    std::optional<CpuDmaLatencyHold> hold;
    hold.emplace(0, stand_in);
    EXPECT_TRUE(holds_open(stand_in)) << "the request lasts as long as the open file";
    hold.reset();
    EXPECT_FALSE(holds_open(stand_in)) << "released when the hold ends";
}

TEST(CpuDmaLatencyHold, AMissingDeviceSaysWhatToDo) {
    try {
        const CpuDmaLatencyHold hold(0, "/nonexistent/cpu_dma_latency");
        FAIL() << "a missing device was accepted";
    } catch (const core::InputError& e) {
        EXPECT_TRUE(
            contains(e.what(), "--cpu-dma-latency 0us: cannot open /nonexistent/cpu_dma_latency"))
            << e.what();
        EXPECT_TRUE(contains(e.what(), "no CPU latency QoS device: drop the option")) << e.what();
    }
}

// The device itself (root-only), when this machine has it and lets us write it: reading it
// gives the limit in force, the lowest any process holds.
class RealDevice : public ::testing::Test {
  protected:
    void SetUp() override {
        if (::access(device.c_str(), R_OK | W_OK) != 0) {
            GTEST_SKIP() << device << " is absent or not writable here";
        }
    }
    std::int32_t limit_in_force() const {
        const core::UniqueFd fd(::open(device.c_str(), O_RDONLY | O_CLOEXEC));
        std::int32_t value = -1;
        EXPECT_EQ(::read(fd.get(), &value, sizeof value), static_cast<ssize_t>(sizeof value));
        return value;
    }
    const std::string device{cpu_dma_latency_device};
};

TEST_F(RealDevice, HoldsTheLimitUntilReleased) {
    const std::int32_t before = limit_in_force();
    {
        const CpuDmaLatencyHold hold(7, device);
        EXPECT_LE(limit_in_force(), 7) << "before the hold: " << before;
    }
    EXPECT_EQ(limit_in_force(), before) << "the limit is released with the hold";
}

TEST_F(RealDevice, TheRealtimeGuardHoldsItForTheRun) {
    const std::int32_t before = limit_in_force();
    {
        RealtimeOptions options;
        options.cpu_dma_latency_us = 7;
        const RealtimeGuard guard(options);
        EXPECT_LE(limit_in_force(), 7);
    }
    EXPECT_EQ(limit_in_force(), before);
    {
        const RealtimeGuard guard(RealtimeOptions{});
        EXPECT_EQ(limit_in_force(), before) << "no hold unless asked";
    }
}

}  // namespace
}  // namespace ppsbench::capture
