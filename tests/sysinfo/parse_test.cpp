// SPDX-License-Identifier: GPL-2.0-or-later
#include "sysinfo/parse.hpp"

#include <gtest/gtest.h>

namespace ppsbench::sysinfo::detail {
namespace {

TEST(ParsePpsEvent, ReadsSysfsAssertFormat) {
    const auto event = parse_pps_event("1700086400.000001234#86399\n");
    ASSERT_TRUE(event);
    EXPECT_EQ(event->seconds, 1700086400);
    EXPECT_EQ(event->nanoseconds, 1234);
    EXPECT_EQ(event->sequence, 86399);
    EXPECT_EQ(parse_pps_event("0.000000000#0"), (PpsEvent{0, 0, 0}));
}

TEST(ParsePpsEvent, RejectsEmptyAndMalformed) {
    // An attribute whose capture is off reads empty (drivers/pps/sysfs.c returns 0 bytes).
    for (const char* bad : {"", "\n", "1700000000#3", "1.2", "x.000000001#1", "1.1000000000#1"}) {
        EXPECT_FALSE(parse_pps_event(bad)) << bad;
    }
}

constexpr std::string_view kRaspberryPiInterrupts =
    "           CPU0       CPU1       CPU2       CPU3       \n"
    " 11:    2134567    1987654    2001234    1876543     GICv2  30 Level     arch_timer\n"
    " 12:          0          0          0          0     GICv2  27 Level     kvm guest vtimer\n"
    " 29:   28765432          0          0          0     GICv2 175 Level     PCIe PME, aerdrv\n"
    " 30:    9876543          0          0          0  BRCM STB PCIe MSI 524288 Edge      "
    "xhci_hcd\n"
    " 41:      86399          0          0          0  pinctrl-bcm2835  18 Edge      pps@12.-1\n"
    "IPI0:     23456      34567      45678      56789       Rescheduling interrupts\n"
    "Err:          0\n";

TEST(ParseInterrupts, SplitsCountsControllerAndActions) {
    const auto lines = parse_interrupts(kRaspberryPiInterrupts);
    ASSERT_EQ(lines.size(), 7U);
    const auto& pps = lines[4];
    EXPECT_EQ(pps.number, 41);
    EXPECT_EQ(pps.counts, (std::vector<std::uint64_t>{86399, 0, 0, 0}));
    EXPECT_EQ(pps.controller, "pinctrl-bcm2835  18 Edge");
    EXPECT_EQ(pps.actions, std::vector<std::string>{"pps@12.-1"});
}

TEST(ParseInterrupts, KeepsBlanksInsideNamesAndSplitsSharedActions) {
    const auto lines = parse_interrupts(kRaspberryPiInterrupts);
    EXPECT_EQ(lines[1].actions, std::vector<std::string>{"kvm guest vtimer"});
    EXPECT_EQ(lines[2].actions, (std::vector<std::string>{"PCIe PME", "aerdrv"}));
    EXPECT_EQ(lines[3].controller, "BRCM STB PCIe MSI 524288 Edge");
}

TEST(ParseInterrupts, ArchitectureCountersHaveNoNumberOrActions) {
    const auto lines = parse_interrupts(kRaspberryPiInterrupts);
    EXPECT_EQ(lines[5].irq, "IPI0");
    EXPECT_FALSE(lines[5].number);
    EXPECT_TRUE(lines[5].actions.empty());
    EXPECT_EQ(lines[6].irq, "Err");
    EXPECT_EQ(lines[6].counts, std::vector<std::uint64_t>{0});
}

TEST(ParseInterrupts, ReadsX86Layout) {
    const auto lines = parse_interrupts(
        "            CPU0       CPU1\n"
        "   4:          0     172801   IO-APIC   4-edge      ttyS0\n"
        " 126:          0    5400000   PCI-MSI 360448-edge      ahci[0000:00:17.0]\n"
        " LOC:   21600000   21600000   Local timer interrupts\n");
    ASSERT_EQ(lines.size(), 3U);
    EXPECT_EQ(lines[0].number, 4);
    EXPECT_EQ(lines[0].controller, "IO-APIC   4-edge");
    EXPECT_EQ(lines[0].actions, std::vector<std::string>{"ttyS0"});
    EXPECT_EQ(lines[1].actions, std::vector<std::string>{"ahci[0000:00:17.0]"});
    EXPECT_EQ(lines[2].irq, "LOC");
}

TEST(ParsePidStat, CountsFieldsFromTheLastParenthesis) {
    // The comm may contain blanks and parentheses; fields 39-41 are processor, rt_priority,
    // policy.
    const std::string tail =
        " S 2 0 0 0 -1 2129984 0 0 0 0 0 10 0 0 -51 0 1 0 312 0 0 18446744073709551615 0 0 0 0 "
        "0 0 0 2147483647 0 0 0 0 17 3 50 1 0 0 0 0 0 0 0 0 0 0 0";
    for (const std::string comm : {"irq/41-pps@12.-1", "a) (b", "x y)", ") S 1 2"}) {
        const auto stat = parse_pid_stat("98 (" + comm + ")" + tail);
        ASSERT_TRUE(stat) << comm;
        EXPECT_EQ(stat->pid, 98);
        EXPECT_EQ(stat->comm, comm);
        EXPECT_EQ(stat->state, 'S');
        EXPECT_EQ(stat->processor, 3);
        EXPECT_EQ(stat->rt_priority, 50);
        EXPECT_EQ(stat->policy, 1);
    }
    EXPECT_EQ(policy_name(1), "SCHED_FIFO");
    EXPECT_EQ(policy_name(0), "SCHED_OTHER");
}

TEST(ParsePidStat, RejectsGarbageAndToleratesShortLines) {
    EXPECT_FALSE(parse_pid_stat(""));
    EXPECT_FALSE(parse_pid_stat("12 no-parens S"));
    const auto short_line = parse_pid_stat("12 (x) R 1");
    ASSERT_TRUE(short_line);
    EXPECT_EQ(short_line->processor, -1);
}

TEST(StatusField, FindsTabSeparatedValue) {
    const std::string status = "Name:\tirq/4-ttyS0\nCpus_allowed:\t2\nCpus_allowed_list:\t1\n";
    EXPECT_EQ(status_field(status, "Cpus_allowed_list"), "1");
    EXPECT_EQ(status_field(status, "Cpus_allowed"), "2");
    EXPECT_FALSE(status_field(status, "Mems_allowed_list"));
}

TEST(CmdlineParameter, FindsFlagsAndValuesBeforeInitArguments) {
    const std::string cmdline = "ro quiet threadirqs isolcpus=2,3 nohz_full=2-3 -- irqaffinity=0";
    EXPECT_EQ(cmdline_parameter(cmdline, "threadirqs"), "");
    EXPECT_EQ(cmdline_parameter(cmdline, "isolcpus"), "2,3");
    EXPECT_EQ(cmdline_parameter(cmdline, "nohz_full"), "2-3");
    EXPECT_FALSE(cmdline_parameter(cmdline, "irqaffinity"));  // after "--": init's
    EXPECT_FALSE(cmdline_parameter("threadirqsx=1", "threadirqs"));
}

TEST(OptionValue, ReadsNulSeparatedCmdline) {
    const std::string cmdline("chronyd\0-d\0-f\0/etc/lab.conf\0", 28);
    EXPECT_EQ(option_value(cmdline, "-f"), "/etc/lab.conf");
    EXPECT_FALSE(option_value(cmdline, "-u"));
    EXPECT_FALSE(option_value(std::string("chronyd\0-f\0", 12), "-f"));
}

TEST(Preemption, FromVersionStringAndDebugfs) {
    EXPECT_EQ(preemption_from_version("#1 SMP PREEMPT_RT Debian 6.1.115-1 (2024-11-01)"),
              "PREEMPT_RT");
    EXPECT_EQ(preemption_from_version("#1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1"),
              "PREEMPT_DYNAMIC");
    EXPECT_EQ(preemption_from_version("#1 SMP PREEMPT Debian 1:6.1.63-1+rpt1"), "full");
    EXPECT_EQ(preemption_from_version("#1 SMP Debian 6.1.115-1"), "none or voluntary");
    EXPECT_EQ(preemption_from_debugfs("none voluntary (full)\n"), "full");
    EXPECT_FALSE(preemption_from_debugfs("none voluntary full"));
}

TEST(ParseCpuList, ExpandsRanges) {
    EXPECT_EQ(parse_cpu_list("0-2,5\n"), (std::vector<int>{0, 1, 2, 5}));
    EXPECT_EQ(parse_cpu_list("3"), std::vector<int>{3});
    EXPECT_TRUE(parse_cpu_list("3-1").empty());
    EXPECT_TRUE(parse_cpu_list("").empty());
}

}  // namespace
}  // namespace ppsbench::sysinfo::detail
