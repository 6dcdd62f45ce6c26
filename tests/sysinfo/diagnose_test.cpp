// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/sysinfo/diagnose.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "fixtures.hpp"

namespace ppsbench::sysinfo {
namespace {

using testing::fixture;
using ::testing::HasSubstr;
using testing::load_fixture;
using ::testing::Not;

std::map<std::string, Severity> severities(const std::vector<Verdict>& verdicts) {
    std::map<std::string, Severity> map;
    for (const auto& verdict : verdicts) {
        EXPECT_EQ(map.count(verdict.check), 0U) << "duplicate check " << verdict.check;
        map[verdict.check] = verdict.severity;
        EXPECT_FALSE(verdict.message.empty()) << verdict.check;
        // A problem always comes with what to do about it.
        EXPECT_EQ(verdict.fix.empty(), verdict.severity == Severity::ok) << verdict.check;
    }
    return map;
}

// Callers keep a copy: with a std::string made from a literal as `check`, g++ 14 cannot tell
// that the reference returned is into `verdicts`, not into the temporary (-Wdangling-reference).
const Verdict& verdict_named(const std::vector<Verdict>& verdicts, const std::string& check) {
    for (const auto& verdict : verdicts) {
        if (verdict.check == check) {
            return verdict;
        }
    }
    throw std::runtime_error("no verdict " + check);
}

using S = Severity;

TEST(Diagnose, StockPiTakesTheTimestampInHardIrq) {
    const auto fp = load_fixture("rpi-stock");
    const auto verdicts = diagnose(fp);
    const std::map<std::string, Severity> expected{
        {"pps-device", S::ok},     {"pps-pulses", S::warn},   {"pps-timestamp-context", S::ok},
        {"clocksource", S::ok},    {"cpufreq", S::warn},      {"cpuidle", S::ok},
        {"chrony-running", S::ok}, {"chrony-refclock", S::ok}};
    EXPECT_EQ(severities(verdicts), expected);
    EXPECT_FALSE(has_failure(verdicts));
    EXPECT_EQ(timestamp_context(fp), TimestampContext::hard_irq);
    // The old handler is harmless here, but would not be on PREEMPT_RT: say so.
    EXPECT_THAT(verdict_named(verdicts, "pps-timestamp-context").message,
                HasSubstr("on PREEMPT_RT or with threadirqs it would take the timestamp"));
    EXPECT_EQ(short_label(fp), "6.1.0-rpi7-rpi-v8 PREEMPT, PPS IRQ hard");
}

TEST(Diagnose, RtWithOldHandlerFailsNamingThreadAndBothFixes) {
    const auto fp = load_fixture("rpi-rt-old");
    const auto verdicts = diagnose(fp);
    const std::map<std::string, Severity> expected{
        {"pps-device", S::ok},
        {"pps-pulses", S::warn},
        {"pps-timestamp-context", S::fail},
        {"clocksource", S::ok},
        {"cpufreq", S::ok},
        {"cpuidle", S::ok},
        {"chrony-running", S::ok},
        {"chrony-refclock", S::ok},
        // Issue 24: the thread pinned to CPU 3 while the interrupt arrives on CPU 0.
        {"irq-thread-affinity", S::warn}};
    EXPECT_EQ(severities(verdicts), expected);
    EXPECT_TRUE(has_failure(verdicts));
    EXPECT_EQ(timestamp_context(fp), TimestampContext::thread);
    const Verdict verdict = verdict_named(verdicts, "pps-timestamp-context");
    EXPECT_THAT(verdict.message, HasSubstr("irq/41-pps@12.-1 (PID 98, SCHED_FIFO 50"));
    EXPECT_THAT(verdict.message, HasSubstr("last ran on CPU 3"));
    EXPECT_THAT(verdict.message, HasSubstr("PREEMPT_RT force-threads"));
    EXPECT_THAT(verdict.message, HasSubstr("Pinning the thread"));
    EXPECT_THAT(verdict.message, HasSubstr("cannot remove it"));
    EXPECT_THAT(verdict.fix, HasSubstr("split handler (Debian 6.1.190 or later, upstream stable "
                                       "6.1.188 or later"));
    EXPECT_THAT(verdict.fix, HasSubstr("pps_gpio_irq_hardirq"));
    EXPECT_THAT(verdict.fix, HasSubstr("IRQF_NO_THREAD also restores edge timestamps but is not "
                                       "RT-safe: pps_event() takes a spinlock_t"));
    EXPECT_EQ(short_label(fp), "6.1.0-27-rt-arm64 PREEMPT_RT, PPS IRQ threaded");
}

TEST(Diagnose, RtWithSplitHandlerIsOkAlthoughTheThreadExists) {
    const auto fp = load_fixture("rpi-rt-split");
    const auto verdicts = diagnose(fp);
    EXPECT_EQ(severities(verdicts).at("pps-timestamp-context"), S::ok);
    EXPECT_FALSE(has_failure(verdicts));
    EXPECT_EQ(timestamp_context(fp), TimestampContext::hard_irq);
    const Verdict verdict = verdict_named(verdicts, "pps-timestamp-context");
    EXPECT_THAT(verdict.message, HasSubstr("split handler"));
    EXPECT_THAT(verdict.message, HasSubstr("irq/41-pps@12.-1"));
    EXPECT_THAT(verdict.message, HasSubstr("only runs pps_event()"));
    EXPECT_EQ(short_label(fp),
              "6.1.0-40-rt-arm64 PREEMPT_RT, PPS IRQ split (timestamp in hard IRQ)");
}

TEST(Diagnose, ThreadirqsX86WithLdiscFailsAndFlagsPowerManagement) {
    const auto fp = load_fixture("x86-threadirqs");
    const auto verdicts = diagnose(fp);
    const std::map<std::string, Severity> expected{
        {"pps-device", S::ok},
        {"pps-pulses", S::warn},
        {"pps-timestamp-context", S::fail},
        {"pps-irq-cpu", S::warn},
        {"clocksource", S::warn},
        {"cpufreq", S::warn},
        {"cpuidle", S::warn},
        {"chrony-running", S::ok},
        {"chrony-refclock", S::ok},
        // Issue 24: both edges captured, the assert edge on the second and chrony on it.
        {"chrony-refclock-edge", S::ok}};
    EXPECT_EQ(severities(verdicts), expected);
    const Verdict context = verdict_named(verdicts, "pps-timestamp-context");
    EXPECT_THAT(context.message, HasSubstr("irq/4-ttyS0"));
    EXPECT_THAT(context.message, HasSubstr("threadirqs"));
    EXPECT_THAT(context.fix, HasSubstr("no split handler"));
    EXPECT_THAT(verdict_named(verdicts, "pps-irq-cpu").message,
                HasSubstr("IRQ 125 (enp2s0) at 4000/s"));
    EXPECT_THAT(verdict_named(verdicts, "clocksource").message, HasSubstr("hpet"));
    EXPECT_THAT(verdict_named(verdicts, "cpuidle").message, HasSubstr("C6 (85 µs"));
    EXPECT_THAT(verdict_named(verdicts, "cpuidle").message, Not(HasSubstr("C1 (")));
    EXPECT_THAT(verdict_named(verdicts, "cpufreq").message, HasSubstr("powersave on CPU 0-3"));
    EXPECT_EQ(short_label(fp), "6.1.0-27-amd64 PREEMPT_DYNAMIC threadirqs, PPS IRQ threaded");
}

TEST(Diagnose, NoPpsFailsOnTheDeviceAndSkipsItsChecks) {
    const auto fp = load_fixture("no-pps");
    const auto verdicts = diagnose(fp);
    const std::map<std::string, Severity> expected{{"pps-device", S::fail},
                                                   {"clocksource", S::ok},
                                                   {"cpufreq", S::ok},
                                                   {"chrony-running", S::warn}};
    EXPECT_EQ(severities(verdicts), expected);
    EXPECT_THAT(verdict_named(verdicts, "pps-device").message, HasSubstr("no PPS device"));
    EXPECT_EQ(short_label(fp), "6.1.0-27-amd64 PREEMPT_DYNAMIC, no PPS");
}

TEST(Diagnose, ThreadirqsWithOldPpsGpioHandlerFailsToo) {
    auto fp = load_fixture("rpi-rt-old");
    fp.kernel.preempt_rt = false;
    fp.kernel.realtime_sysfs = false;
    fp.kernel.preemption = "PREEMPT_DYNAMIC";
    fp.kernel.threadirqs = true;
    const auto verdicts = diagnose(fp);
    const Verdict verdict = verdict_named(verdicts, "pps-timestamp-context");
    EXPECT_EQ(verdict.severity, S::fail);
    EXPECT_THAT(verdict.message, HasSubstr("the threadirqs boot option force-threads"));
}

TEST(Diagnose, ForcedThreadingWithOldHandlerButNoThreadIsUnknown) {
    auto fp = load_fixture("rpi-rt-old");
    fp.pps->irq->thread.reset();
    const auto verdicts = diagnose(fp);
    const Verdict verdict = verdict_named(verdicts, "pps-timestamp-context");
    EXPECT_EQ(verdict.severity, S::warn);
    EXPECT_THAT(verdict.message, HasSubstr("IRQF_NO_THREAD"));
    EXPECT_THAT(verdict.message, HasSubstr("not RT-safe"));
    EXPECT_EQ(timestamp_context(fp), TimestampContext::unknown);
}

TEST(Diagnose, ThreadWithoutHandlerSymbolsProvesNothing) {
    auto fp = load_fixture("rpi-rt-split");
    fp.pps->handler = HandlerKind::unknown;
    fp.pps->handler_symbols.clear();
    const auto verdicts = diagnose(fp);
    const Verdict verdict = verdict_named(verdicts, "pps-timestamp-context");
    EXPECT_EQ(verdict.severity, S::warn);
    EXPECT_THAT(verdict.message, HasSubstr("proves nothing"));
    EXPECT_EQ(timestamp_context(fp), TimestampContext::unknown);
    EXPECT_EQ(short_label(fp), "6.1.0-40-rt-arm64 PREEMPT_RT, PPS IRQ path unknown");
}

TEST(Diagnose, PulseChecks) {
    auto fp = load_fixture("rpi-stock");
    auto& pps = *fp.pps;
    pps.pulses_sampled = true;
    pps.pulse_wait = std::chrono::milliseconds(1200);

    pps.assert_second = PpsEvent{1700086401, 1301, 86400};
    EXPECT_EQ(verdict_named(diagnose(fp), "pps-pulses").severity, S::ok);

    pps.assert_second = pps.assert_first;
    const auto stalled = verdict_named(diagnose(fp), "pps-pulses");
    EXPECT_EQ(stalled.severity, S::fail);
    EXPECT_THAT(stalled.message, HasSubstr("no pulse in 1.2 s"));

    pps.assert_first = pps.assert_second = PpsEvent{0, 0, 0};
    const auto never = verdict_named(diagnose(fp), "pps-pulses");
    EXPECT_EQ(never.severity, S::fail);
    EXPECT_THAT(never.message, HasSubstr("has not captured a single pulse"));
}

TEST(Diagnose, NamedDeviceMissingListsTheOthers) {
    FingerprintOptions options;
    options.sysroot = fixture("rpi-stock");
    options.device = "/dev/pps2";
    options.pulse_wait = std::chrono::milliseconds(0);
    const auto verdicts = diagnose(read_fingerprint(options));
    const Verdict verdict = verdict_named(verdicts, "pps-device");
    EXPECT_EQ(verdict.severity, S::fail);
    EXPECT_THAT(verdict.message, HasSubstr("/dev/pps2"));
    EXPECT_THAT(verdict.message, HasSubstr("/dev/pps0"));
}

TEST(Diagnose, DriverKindsThatCannotBeDiagnosedAreSaidSo) {
    auto fp = load_fixture("x86-threadirqs");
    fp.pps->name = "ktimer";
    fp.pps->path.clear();
    fp.pps->kind = PpsDriverKind::ktimer;
    fp.pps->irq.reset();
    auto verdicts = diagnose(fp);
    EXPECT_EQ(verdict_named(verdicts, "pps-driver").severity, S::warn);
    EXPECT_THAT(verdict_named(verdicts, "pps-driver").message, HasSubstr("software test source"));
    EXPECT_EQ(severities(verdicts).count("pps-timestamp-context"), 0U);

    fp.pps->kind = PpsDriverKind::pps_ldisc;
    fp.pps->path = "/dev/ttyUSB0";
    verdicts = diagnose(fp);
    EXPECT_THAT(verdict_named(verdicts, "pps-driver").message, HasSubstr("USB"));
    EXPECT_EQ(severities(verdicts).count("pps-irq"), 0U);
}

TEST(Diagnose, MissingIrqIsAWarning) {
    auto fp = load_fixture("rpi-stock");
    fp.pps->irq.reset();
    EXPECT_EQ(verdict_named(diagnose(fp), "pps-irq").severity, S::warn);
}

TEST(Diagnose, Clocksources) {
    auto fp = load_fixture("rpi-stock");
    fp.power.clocksource = "jiffies";
    EXPECT_EQ(verdict_named(diagnose(fp), "clocksource").severity, S::fail);
    // A paravirtual clock next to an available TSC is fine (a VM), HPET is not.
    fp.power.available_clocksources = "tsc kvm-clock hpet acpi_pm ";
    fp.power.clocksource = "kvm-clock";
    EXPECT_EQ(verdict_named(diagnose(fp), "clocksource").severity, S::ok);
    fp.power.clocksource = "acpi_pm";
    EXPECT_EQ(verdict_named(diagnose(fp), "clocksource").severity, S::warn);
}

TEST(Diagnose, ChronyWithoutThisDeviceWarns) {
    auto fp = load_fixture("rpi-stock");
    fp.chrony.refclocks.pop_back();  // keep only the SHM line
    const auto verdict = verdict_named(diagnose(fp), "chrony-refclock");
    EXPECT_EQ(verdict.severity, S::warn);
    EXPECT_THAT(verdict.message, HasSubstr("refclocks: SHM 0"));
    EXPECT_THAT(verdict.fix, HasSubstr("refclock PPS /dev/pps0"));
}

TEST(Diagnose, ChronyNotRunningWarns) {
    auto fp = load_fixture("rpi-stock");
    fp.chrony.running = false;
    EXPECT_EQ(verdict_named(diagnose(fp), "chrony-running").severity, S::warn);
}

}  // namespace
}  // namespace ppsbench::sysinfo
