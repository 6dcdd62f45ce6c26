#include <fmt/format.h>
#include <algorithm>

#include "sysinfo/parse.hpp"
#include "sysinfo/readers.hpp"
#include "sysinfo/sysroot.hpp"

namespace ppsbench::sysinfo::detail {

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
    return power;
}

}  // namespace ppsbench::sysinfo::detail
