// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ppsbench::latency {

// The aggregate "cpu" line of /proc/stat, in USER_HZ ticks since boot.
struct CpuTimes {
    std::uint64_t idle = 0;   // idle + iowait: the CPU had nothing to run
    std::uint64_t total = 0;  // user + nice + system + idle + iowait + irq + softirq + steal
};

// Parses /proc/stat text. guest and guest_nice are not added: the kernel already counts them in
// user and nice. Throws core::InputError naming `what` when there is no usable "cpu" line.
CpuTimes parse_cpu_times(std::string_view proc_stat_text, const std::string& what);

// Reads and parses a /proc/stat-format file (a path so tests can feed fixtures).
CpuTimes read_cpu_times(const std::string& path = "/proc/stat");

// The fraction of CPU time spent idle between two samples, over all CPUs; nullopt when no tick
// passed (a run shorter than 1/USER_HZ).
std::optional<double> idle_fraction(const CpuTimes& start, const CpuTimes& end);

}  // namespace ppsbench::latency
