// The project's lab module (tests/lab/module/ppsbench_lab.c) as the doctor sees it. Its handler
// symbols are all loaded whatever its `mode` parameter, so the handler shape comes from
// /sys/module/ppsbench_lab/parameters/mode; the fixture `lab-rt` is a real guest's files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "ppsbench/sysinfo/diagnose.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"
#include "ppsbench/sysinfo/json.hpp"

namespace ppsbench::sysinfo {
namespace {

using testing::fixture;
using testing::FixtureCopy;
using ::testing::HasSubstr;

constexpr const char* kModeFile = "/sys/module/ppsbench_lab/parameters/mode";

SystemFingerprint load(const std::filesystem::path& root) {
    FingerprintOptions options;
    options.sysroot = root;
    options.pulse_wait = std::chrono::milliseconds(0);
    return read_fingerprint(options);
}

Verdict context_verdict(const std::vector<Verdict>& verdicts) {
    for (const auto& verdict : verdicts) {
        if (verdict.check == "pps-timestamp-context") {
            return verdict;
        }
    }
    throw std::runtime_error("no pps-timestamp-context verdict");
}

// The same tree without PREEMPT_RT: what the stock Debian kernel shows.
void make_stock(const FixtureCopy& copy) {
    copy.remove("/sys/kernel/realtime");
    copy.write("/proc/sys/kernel/version",
               "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)\n");
    copy.write("/proc/sys/kernel/osrelease", "6.1.0-57-amd64\n");
}

TEST(LabDriver, FingerprintReadsTheModeParameter) {
    const auto fp = load(fixture("lab-rt"));
    EXPECT_TRUE(fp.kernel.preempt_rt);
    ASSERT_TRUE(fp.pps);
    EXPECT_EQ(fp.pps->name, "ppsbench-lab");
    EXPECT_EQ(fp.pps->kind, PpsDriverKind::ppsbench_lab);
    EXPECT_EQ(fp.pps->handler, HandlerKind::single);  // mode=threaded
    EXPECT_TRUE(fp.pps->handler_symbols.empty());     // kallsyms is not consulted
    ASSERT_TRUE(fp.pps->irq);
    EXPECT_EQ(fp.pps->irq->number, 24);
    ASSERT_TRUE(fp.pps->irq->thread);
    EXPECT_EQ(fp.pps->irq->thread->comm, "irq/24-ppsbench-lab");
    EXPECT_EQ(fp.pps->irq->thread->policy, "SCHED_FIFO");
    EXPECT_EQ(fp.pps->irq->thread->rt_priority, 50);
    const auto json = to_json(fp);
    EXPECT_EQ(json["pps"]["kind"], "ppsbench-lab");
    EXPECT_EQ(json["pps"]["handler"], "single");
}

TEST(LabDriver, ThreadedModeOnRtFailsNamingTheThread) {
    const auto fp = load(fixture("lab-rt"));
    const auto verdicts = diagnose(fp);
    const auto& verdict = context_verdict(verdicts);
    EXPECT_EQ(verdict.severity, Severity::fail);
    EXPECT_THAT(verdict.message, HasSubstr("irq/24-ppsbench-lab (PID 115, SCHED_FIFO 50"));
    EXPECT_THAT(verdict.message, HasSubstr("PREEMPT_RT force-threads the lab module's single"));
    EXPECT_THAT(verdict.message, HasSubstr(kModeFile));
    EXPECT_THAT(verdict.fix, HasSubstr("mode=split"));
    EXPECT_EQ(timestamp_context(fp), TimestampContext::thread);
    EXPECT_TRUE(has_failure(verdicts));
    EXPECT_EQ(short_label(fp), "6.1.0-57-rt-amd64 PREEMPT_RT, PPS IRQ threaded");
}

TEST(LabDriver, SplitModeIsHardIrqAlthoughTheThreadExists) {
    const FixtureCopy copy("lab-rt");
    copy.write(kModeFile, "split\n");
    const auto fp = load(copy.root());
    EXPECT_EQ(fp.pps->handler, HandlerKind::split);
    const auto verdicts = diagnose(fp);
    const auto& verdict = context_verdict(verdicts);
    EXPECT_EQ(verdict.severity, Severity::ok);
    EXPECT_THAT(verdict.message, HasSubstr("only runs pps_event()"));
    EXPECT_EQ(timestamp_context(fp), TimestampContext::hard_irq);
    EXPECT_EQ(short_label(fp),
              "6.1.0-57-rt-amd64 PREEMPT_RT, PPS IRQ split (timestamp in hard IRQ)");
}

TEST(LabDriver, NoThreadModeIsHardIrqButNotRtSafe) {
    const FixtureCopy copy("lab-rt");
    copy.write(kModeFile, "nothread\n");
    copy.remove("/proc/115");  // IRQF_NO_THREAD: no irq/24- thread
    const auto fp = load(copy.root());
    EXPECT_EQ(fp.pps->handler, HandlerKind::no_thread);
    EXPECT_EQ(to_json(fp)["pps"]["handler"], "no-thread");
    const Verdict verdict = context_verdict(diagnose(fp));
    EXPECT_EQ(verdict.severity, Severity::ok);
    EXPECT_THAT(verdict.message, HasSubstr("IRQF_NO_THREAD"));
    EXPECT_THAT(verdict.message, HasSubstr("not RT-safe"));
    EXPECT_EQ(timestamp_context(fp), TimestampContext::hard_irq);
}

TEST(LabDriver, ThreadedModeOnStockKernelIsHardIrq) {
    const FixtureCopy copy("lab-rt");
    make_stock(copy);
    copy.remove("/proc/115");
    const auto fp = load(copy.root());
    EXPECT_FALSE(fp.kernel.forced_irq_threading());
    const Verdict verdict = context_verdict(diagnose(fp));
    EXPECT_EQ(verdict.severity, Severity::ok);
    EXPECT_EQ(timestamp_context(fp), TimestampContext::hard_irq);
}

TEST(LabDriver, ThreadirqsForcesTheThreadedModeToo) {
    const FixtureCopy copy("lab-rt");
    make_stock(copy);
    copy.write("/proc/cmdline", "console=ttyS0 threadirqs\n");
    const auto fp = load(copy.root());
    const Verdict verdict = context_verdict(diagnose(fp));
    EXPECT_EQ(verdict.severity, Severity::fail);
    EXPECT_THAT(verdict.message, HasSubstr("the threadirqs boot option force-threads"));
}

TEST(LabDriver, UnreadableModeIsUnknownNotGuessed) {
    const FixtureCopy copy("lab-rt");
    copy.remove("/sys/module/ppsbench_lab");
    const auto fp = load(copy.root());
    EXPECT_EQ(fp.pps->handler, HandlerKind::unknown);
    const Verdict verdict = context_verdict(diagnose(fp));
    EXPECT_EQ(verdict.severity, Severity::warn);
    EXPECT_EQ(timestamp_context(fp), TimestampContext::unknown);
}

TEST(LabDriver, IsNamedATestSource) {
    const auto verdicts = diagnose(load(fixture("lab-rt")));
    bool found = false;
    for (const auto& verdict : verdicts) {
        if (verdict.check == "pps-driver") {
            found = true;
            EXPECT_EQ(verdict.severity, Severity::warn);
            EXPECT_THAT(verdict.message, HasSubstr("ppsbench's own test module"));
        }
    }
    EXPECT_TRUE(found);
}

}  // namespace
}  // namespace ppsbench::sysinfo
