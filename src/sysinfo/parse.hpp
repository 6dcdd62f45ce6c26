// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Pure parsers for the /proc, /sys and chrony.conf formats the fingerprint reads. No I/O, so
// each format is tested on its own with text copied from real systems.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/sysinfo/fingerprint.hpp"

namespace ppsbench::sysinfo::detail {

std::string_view trim(std::string_view text);
std::optional<long long> parse_integer(std::string_view text);

// "1700000000.123456789#42" (drivers/pps/sysfs.c: "%lld.%09d#%d").
std::optional<PpsEvent> parse_pps_event(std::string_view text);

// One line of /proc/interrupts. Numeric lines ("41:") are device interrupts; the others (LOC,
// NMI, IPI0...) are architecture counters and have no actions.
struct InterruptLine {
    std::string irq;  // "41", "LOC"
    std::optional<int> number;
    std::vector<std::uint64_t> counts;  // one per CPU column
    std::string controller;             // e.g. "pinctrl-bcm2835  12 Edge"
    std::vector<std::string> actions;   // requested names, e.g. {"pps@12.-1"}
};
std::vector<InterruptLine> parse_interrupts(std::string_view text);

// /proc/[pid]/stat. The comm (field 2) is in parentheses and may itself contain spaces and
// parentheses, so the fields after it are counted from the last ')'.
struct PidStat {
    int pid = 0;
    std::string comm;
    char state = '?';
    int processor = -1;   // field 39
    int rt_priority = 0;  // field 40
    int policy = 0;       // field 41
};
std::optional<PidStat> parse_pid_stat(std::string_view text);
std::string policy_name(int policy);

// "Cpus_allowed_list:\t0-3" from /proc/[pid]/status.
std::optional<std::string> status_field(std::string_view status, std::string_view key);

// Kernel command line parameters: value of "key=value", or "" for a bare flag.
std::optional<std::string> cmdline_parameter(std::string_view cmdline, std::string_view key);

// The argument after `option` in a NUL-separated /proc/[pid]/cmdline ("-f" "/etc/x.conf").
std::optional<std::string> option_value(std::string_view cmdline, std::string_view option);

// Preemption model from the selected entry of /sys/kernel/debug/sched/preempt
// ("none voluntary (full)") or from the version string's PREEMPT_* words.
std::optional<std::string> preemption_from_debugfs(std::string_view text);
std::string preemption_from_version(std::string_view version);

// Expands a cpulist such as "0-2,5" to {0,1,2,5}; empty on malformed input.
std::vector<int> parse_cpu_list(std::string_view text);

}  // namespace ppsbench::sysinfo::detail
