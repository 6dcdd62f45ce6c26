// SPDX-License-Identifier: GPL-2.0-or-later
// The project's lab module (tests/lab/module/ppsbench_lab.c) as the doctor sees it: like any
// pps-gpio. It is built once per handler shape with pps-gpio's handler symbols and names its
// PPS source in pps-gpio's style, so the doctor's general path reads it: the symbols in
// /proc/kallsyms give the shape, the irq/N- thread (or its absence where threading is forced)
// the context. The fixture `lab-rt` is a real guest's files (mode=threaded on PREEMPT_RT).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "ppsbench/sysinfo/diagnose.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"
#include "ppsbench/sysinfo/json.hpp"

namespace ppsbench::sysinfo {
namespace {

using ::testing::ElementsAre;
using testing::fixture;
using testing::FixtureCopy;
using ::testing::HasSubstr;

// From the fixture: the PPS interrupt's thread, and what the split build's kallsyms shows.
constexpr const char* kThreadDir = "/proc/105";
constexpr const char* kSplitSymbols =
    "0000000000000000 t pps_gpio_irq_thread\t[ppsbench_lab]\n"
    "0000000000000000 t pps_gpio_irq_hardirq\t[ppsbench_lab]\n";

SystemFingerprint load_tree(const std::filesystem::path& root) {
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

TEST(LabDriver, FingerprintReadsItAsPpsGpio) {
    const auto fp = load_tree(fixture("lab-rt"));
    EXPECT_TRUE(fp.kernel.preempt_rt);
    ASSERT_TRUE(fp.pps);
    EXPECT_EQ(fp.pps->name, "pps-gpio-lab");
    EXPECT_EQ(fp.pps->kind, PpsDriverKind::pps_gpio);
    EXPECT_EQ(fp.pps->handler, HandlerKind::single);  // mode=threaded
    EXPECT_THAT(fp.pps->handler_symbols, ElementsAre("pps_gpio_irq_handler"));
    ASSERT_TRUE(fp.pps->irq);
    EXPECT_EQ(fp.pps->irq->number, 24);
    ASSERT_TRUE(fp.pps->irq->thread);
    EXPECT_EQ(fp.pps->irq->thread->comm, "irq/24-pps-gpio-lab");
    EXPECT_EQ(fp.pps->irq->thread->policy, "SCHED_FIFO");
    EXPECT_EQ(fp.pps->irq->thread->rt_priority, 50);
    const auto json = to_json(fp);
    EXPECT_EQ(json["pps"]["kind"], "pps-gpio");
    EXPECT_EQ(json["pps"]["handler"], "single");
}

TEST(LabDriver, ThreadedModeOnRtFailsNamingTheThread) {
    const auto fp = load_tree(fixture("lab-rt"));
    const auto verdicts = diagnose(fp);
    const auto& verdict = context_verdict(verdicts);
    EXPECT_EQ(verdict.severity, Severity::fail);
    EXPECT_THAT(verdict.message, HasSubstr("irq/24-pps-gpio-lab (PID 105, SCHED_FIFO 50"));
    EXPECT_THAT(verdict.message, HasSubstr("PREEMPT_RT force-threads pps-gpio's single handler"));
    EXPECT_THAT(verdict.fix, HasSubstr("split handler"));
    EXPECT_EQ(timestamp_context(fp), TimestampContext::thread);
    EXPECT_TRUE(has_failure(verdicts));
    EXPECT_EQ(short_label(fp), "6.1.0-57-rt-amd64 PREEMPT_RT, PPS IRQ threaded");
}

TEST(LabDriver, SplitBuildIsHardIrqAlthoughTheThreadExists) {
    const FixtureCopy copy("lab-rt");
    copy.write("/proc/kallsyms", kSplitSymbols);
    const auto fp = load_tree(copy.root());
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
    copy.remove(kThreadDir);  // IRQF_NO_THREAD: no irq/N- thread; other IRQs keep theirs
    const auto fp = load_tree(copy.root());
    EXPECT_EQ(fp.pps->handler, HandlerKind::no_thread);
    EXPECT_EQ(to_json(fp)["pps"]["handler"], "no-thread");
    const Verdict verdict = context_verdict(diagnose(fp));
    EXPECT_EQ(verdict.severity, Severity::ok);
    EXPECT_THAT(verdict.message, HasSubstr("IRQF_NO_THREAD"));
    EXPECT_THAT(verdict.message, HasSubstr("not RT-safe"));
    EXPECT_EQ(timestamp_context(fp), TimestampContext::hard_irq);
}

TEST(LabDriver, NoThreadIsNotConcludedFromAnUnreadableProcessList) {
    const FixtureCopy copy("lab-rt");
    for (const auto& entry : std::filesystem::directory_iterator(copy.root() / "proc")) {
        const auto name = entry.path().filename().string();
        if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0])) != 0) {
            std::filesystem::remove_all(entry.path());
        }
    }
    const auto fp = load_tree(copy.root());
    EXPECT_EQ(fp.pps->handler, HandlerKind::single);
    const Verdict verdict = context_verdict(diagnose(fp));
    EXPECT_EQ(verdict.severity, Severity::warn);
    EXPECT_EQ(timestamp_context(fp), TimestampContext::unknown);
}

TEST(LabDriver, ThreadedModeOnStockKernelIsHardIrq) {
    const FixtureCopy copy("lab-rt");
    make_stock(copy);
    copy.remove(kThreadDir);
    const auto fp = load_tree(copy.root());
    EXPECT_FALSE(fp.kernel.forced_irq_threading());
    EXPECT_EQ(fp.pps->handler, HandlerKind::single);
    const Verdict verdict = context_verdict(diagnose(fp));
    EXPECT_EQ(verdict.severity, Severity::ok);
    EXPECT_EQ(timestamp_context(fp), TimestampContext::hard_irq);
}

TEST(LabDriver, ThreadirqsForcesTheThreadedModeToo) {
    const FixtureCopy copy("lab-rt");
    make_stock(copy);
    copy.write("/proc/cmdline", "console=ttyS0 threadirqs\n");
    const auto fp = load_tree(copy.root());
    const Verdict verdict = context_verdict(diagnose(fp));
    EXPECT_EQ(verdict.severity, Severity::fail);
    EXPECT_THAT(verdict.message, HasSubstr("the threadirqs boot option force-threads"));
}

TEST(LabDriver, UnreadableKallsymsIsUnknownNotGuessed) {
    const FixtureCopy copy("lab-rt");
    copy.remove("/proc/kallsyms");
    const auto fp = load_tree(copy.root());
    EXPECT_EQ(fp.pps->handler, HandlerKind::unknown);
    const Verdict verdict = context_verdict(diagnose(fp));
    EXPECT_EQ(verdict.severity, Severity::warn);
    EXPECT_EQ(timestamp_context(fp), TimestampContext::unknown);
}

}  // namespace
}  // namespace ppsbench::sysinfo
