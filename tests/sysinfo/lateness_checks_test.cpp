// SPDX-License-Identifier: GPL-2.0-or-later
// What else makes a PPS timestamp late (issue 24, item 6): each check on a fixture where it
// fires and on one where it does not, all read through the sysroot.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>

#include "fixtures.hpp"
#include "ppsbench/sysinfo/diagnose.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"

namespace ppsbench::sysinfo {
namespace {

using testing::FixtureCopy;
using ::testing::HasSubstr;

CommandRunner no_programs() {
    return [](const std::vector<std::string>&) { return std::nullopt; };
}

SystemFingerprint load_with(const std::filesystem::path& root, CommandRunner run = no_programs()) {
    FingerprintOptions options;
    options.sysroot = root;
    options.pulse_wait = std::chrono::milliseconds(0);
    options.run_command = std::move(run);
    return read_fingerprint(options);
}

std::optional<Verdict> verdict_of(const SystemFingerprint& fp, const std::string& check) {
    for (auto& verdict : diagnose(fp)) {
        if (verdict.check == check) {
            return verdict;
        }
    }
    return std::nullopt;
}

// --- IRQ thread affinity -------------------------------------------------------------------

TEST(IrqThreadAffinity, AThreadPinnedAwayFromItsInterruptWarnsWhereItTakesTheTimestamp) {
    // rpi-rt-old: IRQ 41 effective on CPU 0, its thread pinned to CPU 3, single handler on RT.
    const auto v = verdict_of(load_with(testing::fixture("rpi-rt-old")), "irq-thread-affinity");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->severity, Severity::warn);
    EXPECT_THAT(v->message, HasSubstr("taken on CPU 0"));
    EXPECT_THAT(v->message, HasSubstr("may run on CPU 3"));
    EXPECT_THAT(v->fix, HasSubstr("/proc/irq/41/smp_affinity_list"));
}

TEST(IrqThreadAffinity, AThreadOnItsInterruptsCpuSaysNothing) {
    EXPECT_FALSE(verdict_of(load_with(testing::fixture("rpi-rt-split")), "irq-thread-affinity"));
    // x86: smp_affinity 0-3 but effective 1, and the thread on 1: the kernel's own choice.
    EXPECT_FALSE(verdict_of(load_with(testing::fixture("x86-threadirqs")), "irq-thread-affinity"));
}

TEST(IrqThreadAffinity, WithTheSplitHandlerOnlyPpsEventIsDelayed) {
    FixtureCopy tree("rpi-rt-split");
    auto status = std::ifstream(tree.root() / "proc/98/status");
    std::string text((std::istreambuf_iterator<char>(status)), {});
    const auto at = text.find("Cpus_allowed_list:");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, text.find('\n', at) - at, "Cpus_allowed_list:\t3");
    tree.write("/proc/98/status", text);
    const auto v = verdict_of(load_with(tree.root()), "irq-thread-affinity");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->severity, Severity::ok);
    EXPECT_THAT(v->message, HasSubstr("not the timestamp taken in hard IRQ"));
}

// --- PCIe ASPM -----------------------------------------------------------------------------

void add_rp1(const FixtureCopy& tree, const char* l1) {
    const std::string dir = "/sys/bus/pci/devices/0000:01:00.0/";
    tree.write(dir + "vendor", "0x1de4\n");
    tree.write(dir + "device", "0x0001\n");
    tree.write(dir + "link/l0s_aspm", "0\n");
    tree.write(dir + "link/l1_aspm", std::string(l1) + "\n");
    tree.write(dir + "link/clkpm", "0\n");
    tree.write("/sys/module/pcie_aspm/parameters/policy",
               "default performance [powersave] powersupersave\n");
}

TEST(PcieAspm, TheRp1LinkInL1Warns) {
    FixtureCopy tree("rpi-stock");
    add_rp1(tree, "1");
    const auto v = verdict_of(load_with(tree.root()), "pcie-aspm");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->severity, Severity::warn);
    EXPECT_THAT(v->message, HasSubstr("RP1"));
    EXPECT_THAT(v->message, HasSubstr("may sleep in L1"));
    EXPECT_THAT(v->message, HasSubstr("policy powersave"));
    EXPECT_THAT(v->fix, HasSubstr("/sys/bus/pci/devices/0000:01:00.0/link/l1_aspm"));
}

TEST(PcieAspm, TheRp1LinkKeptActiveIsOk) {
    FixtureCopy tree("rpi-stock");
    add_rp1(tree, "0");
    const auto v = verdict_of(load_with(tree.root()), "pcie-aspm");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->severity, Severity::ok);
}

TEST(PcieAspm, WithoutAGpioLinkOnlyASleepyPolicyWarns) {
    FixtureCopy tree("x86-threadirqs");
    tree.write("/sys/module/pcie_aspm/parameters/policy", "default performance [powersupersave]\n");
    const auto v = verdict_of(load_with(tree.root()), "pcie-aspm");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->severity, Severity::warn);
    EXPECT_THAT(v->fix, HasSubstr("pcie_aspm.policy=performance"));
    tree.write("/sys/module/pcie_aspm/parameters/policy", "[default] performance powersave\n");
    EXPECT_FALSE(verdict_of(load_with(tree.root()), "pcie-aspm"));
}

// --- Energy-Efficient Ethernet -------------------------------------------------------------

void add_phc_nic(const FixtureCopy& tree, bool ethtool) {
    tree.write("/sys/class/ptp/ptp0/clock_name", "igc\n");
    tree.write("/sys/class/ptp/ptp0/n_external_timestamps", "2\n");
    tree.write("/sys/class/ptp/ptp0/device/net/eth1/ifindex", "3\n");
    if (ethtool) {
        tree.write("/usr/sbin/ethtool", "");
    }
}

CommandRunner ethtool_says(std::string output, std::vector<std::string>* argv = nullptr) {
    return [output, argv](const std::vector<std::string>& args) -> std::optional<std::string> {
        if (argv != nullptr) {
            *argv = args;
        }
        return output;
    };
}

TEST(Eee, EnabledOnThePtpNicWarns) {
    FixtureCopy tree("no-pps");
    add_phc_nic(tree, true);
    std::vector<std::string> argv;
    const auto fp = load_with(tree.root(), ethtool_says("EEE settings for eth1:\n\tEEE status: "
                                                        "enabled - active\n\tTx LPI: 17 (us)\n",
                                                        &argv));
    ASSERT_EQ(argv.size(), 3U);
    EXPECT_EQ(argv[1], "--show-eee");
    EXPECT_EQ(argv[2], "eth1");
    const auto v = verdict_of(fp, "eee");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->severity, Severity::warn);
    EXPECT_THAT(v->message, HasSubstr("enabled - active on eth1 (the NIC of /dev/ptp0)"));
    EXPECT_THAT(v->fix, HasSubstr("ethtool --set-eee eth1 eee off"));
}

TEST(Eee, DisabledOrUnsupportedIsOk) {
    FixtureCopy tree("no-pps");
    add_phc_nic(tree, true);
    for (const char* status : {"disabled", "not supported"}) {
        const auto v = verdict_of(
            load_with(tree.root(), ethtool_says(std::string("\tEEE status: ") + status + "\n")),
            "eee");
        ASSERT_TRUE(v) << status;
        EXPECT_EQ(v->severity, Severity::ok) << status;
    }
}

TEST(Eee, CannotTellWithoutEthtoolOrWhenItFails) {
    FixtureCopy tree("no-pps");
    add_phc_nic(tree, false);
    auto v = verdict_of(load_with(tree.root(), ethtool_says("\tEEE status: enabled\n")), "eee");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->severity, Severity::unknown);
    EXPECT_THAT(v->message, HasSubstr("ethtool is not installed"));
    tree.write("/usr/sbin/ethtool", "");
    v = verdict_of(load_with(tree.root()), "eee");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->severity, Severity::unknown);
    EXPECT_THAT(v->message, HasSubstr("may need root"));
}

TEST(Eee, NoPtpClockNoCheck) {
    EXPECT_FALSE(verdict_of(load_with(testing::fixture("no-pps")), "eee"));
}

// --- Deep idle states and what holds them off ----------------------------------------------

TEST(CpuIdleHold, DeepStatesWithNothingHoldingThemOffWarn) {
    // x86-threadirqs: C1E and C6 enabled; /dev/cpu_dma_latency read (as root) at its default.
    const auto v = verdict_of(load_with(testing::fixture("x86-threadirqs")), "cpuidle");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->severity, Severity::warn);
    EXPECT_THAT(v->message, HasSubstr("nothing holds them off (/dev/cpu_dma_latency: no request)"));
}

TEST(CpuIdleHold, AHeldCpuDmaLatencyIsOk) {
    FixtureCopy tree("x86-threadirqs");
    // The kernel's read returns the target as a binary s32.
    const std::int32_t zero = 0;
    std::string bytes(sizeof zero, '\0');
    std::memcpy(bytes.data(), &zero, sizeof zero);
    tree.write("/dev/cpu_dma_latency", bytes);
    const auto v = verdict_of(load_with(tree.root()), "cpuidle");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->severity, Severity::ok);
    EXPECT_THAT(v->message, HasSubstr("held at 0 µs"));
}

TEST(CpuIdleHold, PerCpuResumeLimitsOnEveryCpuAreAHoldToo) {
    FixtureCopy tree("x86-threadirqs");
    tree.remove("/dev/cpu_dma_latency");
    for (int cpu = 0; cpu < 4; ++cpu) {
        tree.write(
            "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/power/pm_qos_resume_latency_us",
            cpu == 0 ? "n/a\n" : "5\n");
    }
    const auto v = verdict_of(load_with(tree.root()), "cpuidle");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->severity, Severity::ok);
}

TEST(CpuIdleHold, CannotTellTheHoldWithoutRoot) {
    FixtureCopy tree("x86-threadirqs");
    tree.remove("/dev/cpu_dma_latency");
    const auto v = verdict_of(load_with(tree.root()), "cpuidle");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->severity, Severity::unknown);
    EXPECT_THAT(v->message, HasSubstr("reading it needs root"));
}

TEST(CpuIdleHold, OnlyShallowStatesNeedNoHold) {
    const auto v = verdict_of(load_with(testing::fixture("rpi-stock")), "cpuidle");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->severity, Severity::ok);
}

// --- CPU frequency governor ----------------------------------------------------------------

TEST(Governor, OndemandWarnsAndPerformanceIsOk) {
    const auto ondemand = verdict_of(load_with(testing::fixture("rpi-stock")), "cpufreq");
    ASSERT_TRUE(ondemand);
    EXPECT_EQ(ondemand->severity, Severity::warn);
    EXPECT_THAT(ondemand->fix, HasSubstr("performance"));
    const auto performance = verdict_of(load_with(testing::fixture("rpi-rt-old")), "cpufreq");
    ASSERT_TRUE(performance);
    EXPECT_EQ(performance->severity, Severity::ok);
}

}  // namespace
}  // namespace ppsbench::sysinfo
