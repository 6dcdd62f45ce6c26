// SPDX-License-Identifier: GPL-2.0-or-later
// A poll: path must not spin where the PPS interrupt is served or where its thread runs: the
// poller would delay the timestamp it measures (issue 24). The refusal is one line naming both
// CPUs and the fix.
#include "ppsbench/session/poll_placement.hpp"

#include <gtest/gtest.h>

#include "../sysinfo/fixtures.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::session {
namespace {

using sysinfo::testing::fixture;
using sysinfo::testing::FixtureCopy;

PollPlacement poll_on(int cpu) {
    return {.path = "B", .spec = "poll:bcm2835:18", .cpu = cpu, .pps_device = "/dev/pps0"};
}

sysinfo::PpsIrq irq_served_on(int serving, std::optional<int> thread_last_cpu,
                              std::string thread_affinity) {
    sysinfo::PpsIrq irq;
    irq.number = 41;
    irq.serving_cpu = serving;
    if (thread_last_cpu || !thread_affinity.empty()) {
        irq.thread = sysinfo::ThreadInfo{.pid = 98,
                                         .comm = "irq/41-pps@12.-1",
                                         .policy = "SCHED_FIFO",
                                         .rt_priority = 50,
                                         .last_cpu = thread_last_cpu,
                                         .cpus_allowed = std::move(thread_affinity)};
    }
    return irq;
}

// Every CPU of an 8-CPU machine: refused exactly on the interrupt's and the thread's CPU.
TEST(PollPlacement, RefusedExactlyOnTheInterruptsAndTheThreadsCpu) {
    const auto irq = irq_served_on(0, 3, "3");
    for (int cpu = 0; cpu < 8; ++cpu) {
        EXPECT_EQ(poll_placement_conflict(poll_on(cpu), irq).has_value(), cpu == 0 || cpu == 3)
            << "CPU " << cpu;
    }
}

TEST(PollPlacement, TheLineNamesBothCpusAndTheFix) {
    const auto irq = irq_served_on(0, 3, "3");
    const auto on_irq = poll_placement_conflict(poll_on(0), irq);
    ASSERT_TRUE(on_irq);
    EXPECT_EQ(*on_irq,
              "--cpu 0 for path B (poll:bcm2835:18): /dev/pps0's interrupt 41 is served on CPU "
              "0; a poller spinning there delays the timestamp it measures; give the poll path "
              "another --cpu (--cpu takes one CPU per --source, in order)");
    const auto on_thread = poll_placement_conflict(poll_on(3), irq);
    ASSERT_TRUE(on_thread);
    EXPECT_NE(on_thread->find("interrupt thread irq/41-pps@12.-1 runs on CPU 3"), std::string::npos)
        << *on_thread;
    EXPECT_EQ(on_thread->find('\n'), std::string::npos);
}

// A thread allowed on several CPUs is where it last ran; one pinned is where it is pinned.
TEST(PollPlacement, AThreadWithSeveralCpusIsWhereItLastRan) {
    EXPECT_TRUE(poll_placement_conflict(poll_on(2), irq_served_on(0, 2, "0-3")));
    EXPECT_FALSE(poll_placement_conflict(poll_on(1), irq_served_on(0, 2, "0-3")));
    EXPECT_TRUE(poll_placement_conflict(poll_on(3), irq_served_on(0, 1, "3")));
}

TEST(PollPlacement, WhatCannotBeToldPasses) {
    sysinfo::PpsIrq unknown;
    unknown.number = 41;  // no serving CPU, no thread: nothing says the CPU is wrong
    EXPECT_FALSE(poll_placement_conflict(poll_on(0), unknown));
    EXPECT_NO_THROW(check_poll_placement(poll_on(0), fixture("no-pps")));
}

// The fixture of a PREEMPT_RT Pi: pps-gpio's interrupt 41 served on CPU 0, its forced thread
// pinned to CPU 3 (sysinfo's fingerprint tests read the same tree).
TEST(PollPlacement, ReadsTheInterruptFromTheSystemTree) {
    const auto root = fixture("rpi-rt-old");
    EXPECT_THROW(check_poll_placement(poll_on(0), root), core::UsageError);
    EXPECT_THROW(check_poll_placement(poll_on(3), root), core::UsageError);
    EXPECT_NO_THROW(check_poll_placement(poll_on(1), root));
    EXPECT_NO_THROW(check_poll_placement(poll_on(2), root));
}

// Moving the interrupt moves the refusal with it: the tree is read, not assumed.
TEST(PollPlacement, FollowsTheInterruptsAffinity) {
    FixtureCopy tree("rpi-rt-old");
    tree.write("/proc/irq/41/effective_affinity_list", "2\n");
    EXPECT_NO_THROW(check_poll_placement(poll_on(0), tree.root()));
    EXPECT_THROW(check_poll_placement(poll_on(2), tree.root()), core::UsageError);
}

// A reference polled every period leaves no unpolled period: the bias and calibrate measure
// only those. Refused for any all-ones pattern, and only for a poll: source.
TEST(PollReferencePattern, APatternWithoutAnUnpolledPeriodIsRefused) {
    const std::string spec = "poll:mem:/dev/gpiomem0,offset=0x34,bit=18,pattern=11";
    try {
        check_poll_reference_pattern(spec, {{"pattern", "11"}}, "A");
        FAIL() << "pattern=11 polls every period";
    } catch (const core::UsageError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "--source " + spec +
                      ": pattern=11 polls every period, so as path A's reference it leaves no "
                      "period unpolled, and the unpolled ones are what the bias and calibrate "
                      "measure; use a pattern with a 0 (the default 10 alternates)");
    }
    EXPECT_NO_THROW(check_poll_reference_pattern(spec, {{"pattern", "10"}}, "A"));
    EXPECT_NO_THROW(check_poll_reference_pattern(spec, {{"pattern", "110"}}, "A"));
    EXPECT_NO_THROW(check_poll_reference_pattern("sim:reference", {{"pattern", "1"}}, "A"));
}

}  // namespace
}  // namespace ppsbench::session
