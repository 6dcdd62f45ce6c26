// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <algorithm>
#include <cstring>

#include "sysinfo/parse.hpp"
#include "sysinfo/readers.hpp"
#include "sysinfo/sysroot.hpp"

namespace ppsbench::sysinfo::detail {

namespace {

// The kernel's read of /dev/cpu_dma_latency returns the current target as a binary s32; a
// saved snapshot may hold it as text.
std::optional<std::int64_t> cpu_dma_latency(const std::string& bytes) {
    if (bytes.size() == sizeof(std::int32_t)) {
        std::int32_t value = 0;
        std::memcpy(&value, bytes.data(), sizeof value);
        return value;
    }
    if (const auto value = parse_integer(bytes)) {
        return *value;
    }
    return std::nullopt;
}

// What holds CPUs out of deep idle states: /dev/cpu_dma_latency (opened and held by a process
// such as cyclictest or `ppsbench run --rt`; reading it needs root) and per-CPU limits.
void read_idle_holds(const SysRoot& root, const std::vector<int>& cpus, PowerInfo& power) {
    if (const auto bytes = root.read("/dev/cpu_dma_latency", 64)) {
        power.cpu_dma_latency_us = cpu_dma_latency(*bytes);
    }
    for (const int cpu : cpus) {
        const auto text = root.read_line(
            fmt::format("/sys/devices/system/cpu/cpu{}/power/pm_qos_resume_latency_us", cpu));
        if (!text) {
            continue;
        }
        // drivers/base/power/sysfs.c: "n/a" is a limit of 0, "0" means no limit.
        CpuResumeLatency latency{cpu, std::nullopt};
        if (*text == "n/a") {
            latency.limit_us = 0;
        } else if (const auto value = parse_integer(*text); value && *value > 0) {
            latency.limit_us = static_cast<int>(*value);
        }
        power.resume_latencies.push_back(latency);
    }
}

}  // namespace

PowerInfo read_power(const SysRoot& root) {
    PowerInfo power;
    const std::string clocksource = "/sys/devices/system/clocksource/clocksource0/";
    power.clocksource = root.read_line(clocksource + "current_clocksource").value_or("");
    power.available_clocksources =
        root.read_line(clocksource + "available_clocksource").value_or("");
    std::vector<int> cpus;
    for (const auto& entry : root.list("/sys/devices/system/cpu")) {
        if (entry.starts_with("cpu")) {
            if (const auto n = parse_integer(std::string_view(entry).substr(3))) {
                cpus.push_back(static_cast<int>(*n));
            }
        }
    }
    std::sort(cpus.begin(), cpus.end());
    for (const int cpu : cpus) {
        const auto base = fmt::format("/sys/devices/system/cpu/cpu{}/", cpu);
        if (auto governor = root.read_line(base + "cpufreq/scaling_governor")) {
            power.governors.push_back({cpu, std::move(*governor)});
        }
        for (const auto& state : root.list(base + "cpuidle")) {
            const auto index = state.starts_with("state")
                                   ? parse_integer(std::string_view(state).substr(5))
                                   : std::nullopt;
            if (!index) {
                continue;
            }
            const auto state_dir = base + "cpuidle/" + state + "/";
            auto it = std::find_if(power.idle_states.begin(), power.idle_states.end(),
                                   [&](const IdleState& s) { return s.index == *index; });
            if (it == power.idle_states.end()) {
                IdleState idle;
                idle.index = static_cast<int>(*index);
                idle.name = root.read_line(state_dir + "name").value_or("");
                idle.exit_latency_us = static_cast<int>(
                    parse_integer(root.read_line(state_dir + "latency").value_or("")).value_or(0));
                power.idle_states.push_back(std::move(idle));
                it = power.idle_states.end() - 1;
            }
            ++it->cpus_total;
            if (root.read_line(state_dir + "disable").value_or("0") == "0") {
                ++it->cpus_enabled;
            }
        }
    }
    std::sort(power.idle_states.begin(), power.idle_states.end(),
              [](const auto& a, const auto& b) { return a.index < b.index; });
    read_idle_holds(root, cpus, power);
    return power;
}

}  // namespace ppsbench::sysinfo::detail
