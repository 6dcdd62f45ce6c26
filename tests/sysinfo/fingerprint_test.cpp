// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/sysinfo/fingerprint.hpp"

#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::sysinfo {
namespace {

using testing::fixture;
using testing::FixtureCopy;

FingerprintOptions options_for(const std::filesystem::path& root, std::string device = {}) {
    FingerprintOptions options;
    options.sysroot = root;
    options.device = std::move(device);
    options.pulse_wait = std::chrono::milliseconds(0);
    return options;
}

TEST(ReadFingerprint, StockRaspberryPi) {
    const auto fp = read_fingerprint(options_for(fixture("rpi-stock")));
    EXPECT_EQ(fp.kernel.release, "6.1.0-rpi7-rpi-v8");
    EXPECT_FALSE(fp.kernel.preempt_rt);
    EXPECT_EQ(fp.kernel.preemption, "full");
    EXPECT_FALSE(fp.kernel.threadirqs);
    EXPECT_EQ(fp.kernel.arch, "arm");
    ASSERT_TRUE(fp.pps);
    const auto& pps = *fp.pps;
    EXPECT_EQ(pps.id, "pps0");
    EXPECT_EQ(pps.name, "pps@12.-1");
    EXPECT_EQ(pps.driver, "pps-gpio");
    EXPECT_EQ(pps.kind, PpsDriverKind::pps_gpio);
    EXPECT_EQ(pps.mode, 0x1151U);
    ASSERT_TRUE(pps.assert_first);
    EXPECT_EQ(pps.assert_first->sequence, 86399);
    EXPECT_FALSE(pps.clear_first);  // clear capture off: the attribute reads empty
    EXPECT_FALSE(pps.pulses_sampled);
    EXPECT_EQ(pps.handler, HandlerKind::single);
    ASSERT_TRUE(pps.irq);
    EXPECT_EQ(pps.irq->number, 41);
    EXPECT_EQ(pps.irq->controller, "pinctrl-bcm2835  18 Edge");
    EXPECT_EQ(pps.irq->effective_affinity_list, "0");
    EXPECT_EQ(pps.irq->serving_cpu, 0);
    EXPECT_FALSE(pps.irq->thread);  // irq/36-mmc1 exists but belongs to another interrupt
    EXPECT_EQ(fp.power.clocksource, "arch_sys_counter");
    ASSERT_EQ(fp.power.governors.size(), 4U);
    EXPECT_EQ(fp.power.governors[0].governor, "ondemand");
    ASSERT_EQ(fp.power.idle_states.size(), 1U);
    EXPECT_EQ(fp.power.idle_states[0].name, "WFI");
    EXPECT_EQ(fp.power.idle_states[0].cpus_enabled, 4);
    EXPECT_TRUE(fp.chrony.installed);
    EXPECT_TRUE(fp.chrony.running);
    EXPECT_EQ(fp.chrony.pid, 456);
    EXPECT_TRUE(fp.chrony.version.empty());  // a fixture's programs are never run
    ASSERT_EQ(fp.chrony.refclocks.size(), 2U);
    EXPECT_FALSE(fp.chrony.refclocks[0].uses_device);
    EXPECT_TRUE(fp.chrony.refclocks[1].uses_device);
    EXPECT_EQ(fp.chrony.refclocks[1].file, "/etc/chrony/conf.d/gps.conf");
    EXPECT_EQ(fp.chrony.refclocks[1].line, 3);
}

TEST(ReadFingerprint, RtWithOldHandlerFindsTheForcedThread) {
    const auto fp = read_fingerprint(options_for(fixture("rpi-rt-old"), "/dev/pps0"));
    EXPECT_TRUE(fp.kernel.preempt_rt);
    EXPECT_EQ(fp.kernel.realtime_sysfs, true);
    EXPECT_EQ(fp.kernel.preemption, "PREEMPT_RT");
    EXPECT_TRUE(fp.kernel.forced_irq_threading());
    ASSERT_TRUE(fp.pps && fp.pps->irq && fp.pps->irq->thread);
    const auto& thread = *fp.pps->irq->thread;
    EXPECT_EQ(thread.comm, "irq/41-pps@12.-1");
    EXPECT_EQ(thread.pid, 98);
    EXPECT_EQ(thread.policy, "SCHED_FIFO");
    EXPECT_EQ(thread.rt_priority, 50);
    EXPECT_EQ(thread.last_cpu, 3);
    EXPECT_EQ(thread.cpus_allowed, "3");
    EXPECT_EQ(fp.pps->handler, HandlerKind::single);
}

TEST(ReadFingerprint, RtWithSplitHandlerIsToldApartBySymbols) {
    const auto fp = read_fingerprint(options_for(fixture("rpi-rt-split")));
    ASSERT_TRUE(fp.pps && fp.pps->irq);
    EXPECT_TRUE(fp.pps->irq->thread);  // the thread exists here too
    EXPECT_EQ(fp.pps->handler, HandlerKind::split);
}

TEST(ReadFingerprint, ThreadirqsX86WithPpsLdisc) {
    const auto fp = read_fingerprint(options_for(fixture("x86-threadirqs"), "pps0"));
    EXPECT_TRUE(fp.kernel.threadirqs);
    EXPECT_FALSE(fp.kernel.preempt_rt);
    EXPECT_EQ(fp.kernel.preemption, "PREEMPT_DYNAMIC");
    EXPECT_EQ(fp.kernel.arch, "x86");
    ASSERT_TRUE(fp.pps);
    EXPECT_EQ(fp.pps->kind, PpsDriverKind::pps_ldisc);
    EXPECT_EQ(fp.pps->path, "/dev/ttyS0");
    EXPECT_EQ(fp.pps->handler, HandlerKind::unknown);  // kallsyms only consulted for pps-gpio
    ASSERT_TRUE(fp.pps->irq);
    EXPECT_EQ(fp.pps->irq->number, 4);
    EXPECT_EQ(fp.pps->irq->serving_cpu, 1);
    ASSERT_TRUE(fp.pps->irq->thread);
    EXPECT_EQ(fp.pps->irq->thread->comm, "irq/4-ttyS0");
    ASSERT_FALSE(fp.pps->irq->busy_neighbours.empty());
    EXPECT_EQ(fp.pps->irq->busy_neighbours[0].irq, "125");
    EXPECT_EQ(fp.pps->irq->busy_neighbours[0].actions, "enp2s0");
    EXPECT_DOUBLE_EQ(fp.pps->irq->busy_neighbours[0].rate_per_second, 4000.0);
    EXPECT_EQ(fp.power.clocksource, "hpet");
    ASSERT_EQ(fp.power.idle_states.size(), 4U);
    EXPECT_EQ(fp.power.idle_states[3].name, "C6");
    EXPECT_EQ(fp.power.idle_states[3].exit_latency_us, 85);
    ASSERT_EQ(fp.chrony.refclocks.size(), 2U);
    EXPECT_TRUE(fp.chrony.refclocks[1].uses_device);
}

TEST(ReadFingerprint, NoPpsIsNotAnError) {
    const auto fp = read_fingerprint(options_for(fixture("no-pps")));
    EXPECT_FALSE(fp.pps);
    EXPECT_TRUE(fp.available_devices.empty());
    EXPECT_FALSE(fp.chrony.running);
    EXPECT_TRUE(fp.chrony.refclocks.empty());
}

TEST(ReadFingerprint, MissingEverythingIsUnknownNotACrash) {
    const auto fp = read_fingerprint(options_for(fixture("does-not-exist")));
    EXPECT_TRUE(fp.kernel.release.empty());
    EXPECT_TRUE(fp.kernel.preemption.empty());
    EXPECT_FALSE(fp.pps);
    EXPECT_TRUE(fp.power.governors.empty());
    EXPECT_FALSE(fp.chrony.installed);
}

TEST(ReadFingerprint, NamedButAbsentDeviceIsRecordedNotThrown) {
    const auto fp = read_fingerprint(options_for(fixture("rpi-stock"), "/dev/pps3"));
    EXPECT_FALSE(fp.pps);
    EXPECT_EQ(fp.requested_device, "/dev/pps3");
    EXPECT_EQ(fp.available_devices, std::vector<std::string>{"pps0"});
}

TEST(ReadFingerprint, RejectsADeviceThatIsNotPps) {
    EXPECT_THROW(read_fingerprint(options_for(fixture("rpi-stock"), "/dev/ttyS0")),
                 core::UsageError);
    EXPECT_THROW(read_fingerprint(options_for(fixture("rpi-stock"), "ppsx")), core::UsageError);
}

TEST(ReadFingerprint, ReadsPulsesTwiceAroundTheInjectedWait) {
    const FixtureCopy copy("rpi-stock");
    auto options = options_for(copy.root());
    options.pulse_wait = std::chrono::milliseconds(1200);
    std::chrono::milliseconds waited{0};
    options.sleep = [&](std::chrono::milliseconds wait) {
        waited = wait;
        copy.write("/sys/class/pps/pps0/assert", "1700086401.000001301#86400\n");
    };
    const auto fp = read_fingerprint(options);
    EXPECT_EQ(waited, std::chrono::milliseconds(1200));
    ASSERT_TRUE(fp.pps && fp.pps->assert_first && fp.pps->assert_second);
    EXPECT_TRUE(fp.pps->pulses_sampled);
    EXPECT_EQ(fp.pps->assert_first->sequence, 86399);
    EXPECT_EQ(fp.pps->assert_second->sequence, 86400);
}

TEST(ReadFingerprint, TruncatedThreadNameOfOlderKernelsStillMatches) {
    // Before 5.17 /proc showed 15 characters of a kernel thread's name.
    const FixtureCopy copy("rpi-rt-old");
    copy.write("/proc/98/comm", "irq/41-pps@12.-\n");
    const auto fp = read_fingerprint(options_for(copy.root()));
    ASSERT_TRUE(fp.pps && fp.pps->irq && fp.pps->irq->thread);
    EXPECT_EQ(fp.pps->irq->thread->pid, 98);
}

TEST(ReadFingerprint, FindsIrqThroughProcIrqWhenInterruptsIsUnreadable) {
    const FixtureCopy copy("rpi-rt-old");
    copy.remove("/proc/interrupts");
    copy.write("/proc/irq/41/pps@12.-1/.placeholder", "");
    const auto fp = read_fingerprint(options_for(copy.root()));
    ASSERT_TRUE(fp.pps && fp.pps->irq);
    EXPECT_EQ(fp.pps->irq->number, 41);
    EXPECT_TRUE(fp.pps->irq->thread);
}

TEST(ReadFingerprint, FollowsChronyIncludeAndGpsdSocket) {
    const FixtureCopy copy("no-pps");
    copy.write("/etc/chrony/chrony.conf", "include /etc/chrony/extra/*.conf\n");
    copy.write("/etc/chrony/extra/gpsd.conf", "refclock SOCK /run/chrony.pps0.sock refid PPS\n");
    copy.write("/sys/class/pps/pps0/name", "pps@12.-1\n");
    const auto fp = read_fingerprint(options_for(copy.root()));
    ASSERT_EQ(fp.chrony.refclocks.size(), 1U);
    EXPECT_EQ(fp.chrony.refclocks[0].driver, "SOCK");
    EXPECT_TRUE(fp.chrony.refclocks[0].uses_device);
    EXPECT_EQ(fp.chrony.config_files,
              (std::vector<std::string>{"/etc/chrony/chrony.conf", "/etc/chrony/extra/gpsd.conf"}));
}

// A snapshot is read as the system it was copied from: a path in it that climbs with ".." stops
// at the snapshot's root, as it does at / on the live system, instead of reading this host.
TEST(ReadFingerprint, DotDotInASnapshotPathStaysInsideTheSnapshot) {
    const FixtureCopy copy("no-pps");
    const FixtureCopy host("no-pps");  // stands for a file of the host, outside the snapshot
    host.write("/host.conf", "refclock PPS /dev/pps0 refid HOST\n");
    const auto climb = "/../../../../../../../.." + (host.root() / "host.conf").string();
    copy.write("/etc/chrony/chrony.conf", "include " + climb + "\ninclude /../../snap.conf\n");
    copy.write("/snap.conf", "refclock PPS /dev/pps0 refid SNAP\n");
    const auto fp = read_fingerprint(options_for(copy.root()));
    ASSERT_EQ(fp.chrony.refclocks.size(), 1U) << "only the snapshot's /snap.conf";
    EXPECT_EQ(fp.chrony.refclocks[0].text, "refclock PPS /dev/pps0 refid SNAP");
}

TEST(ReadFingerprint, AnotherDevicesThreadOnASharedIrqIsNotThePps) {
    // pps-gpio itself in hard IRQ, sharing its line with a driver that asked for a thread.
    const FixtureCopy copy("rpi-stock");
    auto interrupts = std::string(
        "           CPU0       CPU1       CPU2       CPU3       \n"
        " 41:      86399          0          0          0  pinctrl-bcm2835  18 Edge      "
        "pps@12.-1, sensor\n");
    copy.write("/proc/interrupts", interrupts);
    copy.write("/proc/77/comm", "irq/41-sensor\n");
    auto fp = read_fingerprint(options_for(copy.root()));
    ASSERT_TRUE(fp.pps && fp.pps->irq);
    EXPECT_EQ(fp.pps->irq->actions, (std::vector<std::string>{"pps@12.-1", "sensor"}));
    EXPECT_FALSE(fp.pps->irq->thread);
    // Not shared: the only thread of the interrupt is taken even under another name.
    copy.write("/proc/interrupts", interrupts.substr(0, interrupts.find(", sensor")) + "\n");
    fp = read_fingerprint(options_for(copy.root()));
    ASSERT_TRUE(fp.pps && fp.pps->irq && fp.pps->irq->thread);
    EXPECT_EQ(fp.pps->irq->thread->pid, 77);
}

TEST(ReadFingerprint, ReadsTheConfigChronydWasStartedWith) {
    const FixtureCopy copy("rpi-stock");
    copy.write("/proc/456/cmdline",
               std::string("/usr/sbin/chronyd\0-f\0/tmp/lab/chrony.conf\0", 42));
    copy.write("/tmp/lab/chrony.conf", "refclock PPS /dev/pps0 local\n");
    const auto fp = read_fingerprint(options_for(copy.root()));
    EXPECT_EQ(fp.chrony.config_files, std::vector<std::string>{"/tmp/lab/chrony.conf"});
    ASSERT_EQ(fp.chrony.refclocks.size(), 1U);
    EXPECT_TRUE(fp.chrony.refclocks[0].uses_device);
}

TEST(ReadFingerprint, RunsChronydVersionThroughTheInjectedRunner) {
    auto options = options_for(fixture("rpi-stock"));
    std::vector<std::string> seen;
    options.run_command = [&](const std::vector<std::string>& argv) -> std::optional<std::string> {
        seen = argv;
        return "chronyd (chrony) version 4.3 (+CMDMON +NTP +REFCLOCK +RTC)\n";
    };
    const auto fp = read_fingerprint(options);
    EXPECT_EQ(fp.chrony.version, "4.3");
    ASSERT_EQ(seen.size(), 2U);
    EXPECT_EQ(seen[1], "--version");
}

}  // namespace
}  // namespace ppsbench::sysinfo
