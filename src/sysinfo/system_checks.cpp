// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <algorithm>

#include "sysinfo/checks.hpp"

namespace ppsbench::sysinfo::detail {

namespace {

// Idle states whose exit latency reaches this are "deep": a PPS edge that finds its CPU in
// one waits this long before the handler can start.
constexpr int kDeepIdleLatencyUs = 10;

std::vector<std::string> words_of(const std::string& text) {
    std::vector<std::string> words;
    std::size_t pos = 0;
    while ((pos = text.find_first_not_of(' ', pos)) != std::string::npos) {
        const auto end = text.find(' ', pos);
        words.push_back(text.substr(pos, end - pos));
        pos = end;
    }
    return words;
}

std::string cpu_ranges(std::vector<int> cpus) {
    std::sort(cpus.begin(), cpus.end());
    std::string text;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) {
            ++j;
        }
        if (!text.empty()) {
            text += ',';
        }
        text += i == j ? std::to_string(cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]);
        i = j + 1;
    }
    return text;
}

}  // namespace

void check_clocksource(const SystemFingerprint& fp, std::vector<Verdict>& out) {
    const auto& power = fp.power;
    if (power.clocksource.empty()) {
        return;
    }
    const std::string check = "clocksource";
    if (power.clocksource == "jiffies" || power.clocksource == "refined-jiffies") {
        out.push_back(verdict(Severity::fail, check,
                              fmt::format("the clocksource is {}: timestamps have the resolution "
                                          "of a timer tick (1-10 ms).",
                                          power.clocksource),
                              "Find out from dmesg why no hardware clocksource was usable."));
        return;
    }
    // HPET and the ACPI PM timer are the slow, I/O-mapped fallbacks; TSC-based and
    // paravirtual clocksources (kvm-clock, hyperv, arch_sys_counter on ARM) are fine.
    if (power.clocksource == "hpet" || power.clocksource == "acpi_pm") {
        const auto available = words_of(power.available_clocksources);
        const bool tsc_available =
            std::find(available.begin(), available.end(), "tsc") != available.end();
        out.push_back(verdict(
            Severity::warn, check,
            fmt::format("the clocksource is {}{}: every timestamp then reads a slow I/O device "
                        "(around a microsecond, against tens of nanoseconds for the TSC), which "
                        "adds to the PPS interrupt path.",
                        power.clocksource, tsc_available ? " although the TSC is available" : ""),
            "Look in dmesg for why the kernel left the TSC (\"Marking clocksource 'tsc' as "
            "unstable\"); if the TSC is known good (constant_tsc, nonstop_tsc), boot with "
            "clocksource=tsc."));
        return;
    }
    out.push_back(
        verdict(Severity::ok, check, fmt::format("the clocksource is {}.", power.clocksource)));
}

void check_cpufreq(const PowerInfo& power, std::vector<Verdict>& out) {
    if (power.governors.empty()) {
        return;
    }
    std::vector<std::pair<std::string, std::vector<int>>> others;
    // No structured binding here: clang 14 (the fuzz build) cannot capture one in a lambda.
    for (const CpuGovernor& cpu : power.governors) {
        if (cpu.governor == "performance") {
            continue;
        }
        auto it = std::find_if(others.begin(), others.end(),
                               [&](const auto& entry) { return entry.first == cpu.governor; });
        if (it == others.end()) {
            others.push_back({cpu.governor, {}});
            it = others.end() - 1;
        }
        it->second.push_back(cpu.cpu);
    }
    if (others.empty()) {
        out.push_back(verdict(Severity::ok, "cpufreq", "every CPU uses the performance governor."));
        return;
    }
    std::string list;
    for (const auto& [governor, cpus] : others) {
        list += fmt::format("{}{} on CPU {}", list.empty() ? "" : ", ", governor, cpu_ranges(cpus));
    }
    out.push_back(verdict(
        Severity::warn, "cpufreq",
        fmt::format("CPU frequency scaling is active ({}): the clock speed follows the load, so "
                    "interrupt entry and handler run times change from pulse to pulse, which adds "
                    "jitter and can differ between the runs you compare.",
                    list),
        "For measurements use the performance governor: `cpupower frequency-set -g performance`, "
        "or write performance to /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor."));
}

namespace {

// The CPUs whose per-CPU PM QoS limit keeps them out of states with `exit_latency_us`.
std::vector<int> cpus_held_below(const PowerInfo& power, int exit_latency_us) {
    std::vector<int> cpus;
    for (const auto& latency : power.resume_latencies) {
        if (latency.limit_us && *latency.limit_us < exit_latency_us) {
            cpus.push_back(latency.cpu);
        }
    }
    return cpus;
}

}  // namespace

void check_cpuidle(const PowerInfo& power, std::vector<Verdict>& out) {
    if (power.idle_states.empty()) {
        return;
    }
    std::string deep;
    int shallowest_deep = 0;
    int cpus = 0;
    for (const auto& state : power.idle_states) {
        if (state.exit_latency_us >= kDeepIdleLatencyUs && state.cpus_enabled > 0) {
            deep += fmt::format("{}{} ({} µs exit latency, enabled on {}/{} CPUs)",
                                deep.empty() ? "" : ", ", state.name, state.exit_latency_us,
                                state.cpus_enabled, state.cpus_total);
            shallowest_deep = shallowest_deep == 0 ? state.exit_latency_us : shallowest_deep;
            cpus = std::max(cpus, state.cpus_total);
        }
    }
    if (deep.empty()) {
        const auto& deepest = power.idle_states.back();
        out.push_back(verdict(Severity::ok, "cpuidle",
                              fmt::format("only shallow idle states are enabled (deepest: {}, {} "
                                          "µs exit latency).",
                                          deepest.name, deepest.exit_latency_us)));
        return;
    }
    // A hold below the shallowest deep state keeps every deep state off.
    const auto hold = power.cpu_dma_latency_us;
    if (hold && *hold < shallowest_deep) {
        out.push_back(verdict(
            Severity::ok, "cpuidle",
            fmt::format("deep idle states are enabled ({}) but held off: /dev/cpu_dma_latency is "
                        "held at {} µs, so no CPU enters a state that takes longer to leave.",
                        deep, *hold)));
        return;
    }
    const auto held = cpus_held_below(power, shallowest_deep);
    if (cpus > 0 && static_cast<int>(held.size()) >= cpus) {
        out.push_back(verdict(Severity::ok, "cpuidle",
                              fmt::format("deep idle states are enabled ({}) but every CPU's "
                                          "pm_qos_resume_latency_us keeps it out of them.",
                                          deep)));
        return;
    }
    const std::string effect = fmt::format(
        "deep idle states are enabled: {}. A PPS edge arrives once a second, usually while its "
        "CPU sleeps, and waits for the CPU to wake before the handler runs, adding up to that "
        "latency and its variation to the timestamp (a PC's serial PPS measured 107 µs late idle, "
        "29 µs with cpu_dma_latency held at 0)",
        deep);
    const std::string fix = fmt::format(
        "Keep CPUs out of deep states while measuring: hold /dev/cpu_dma_latency at 0 (a process "
        "that writes 0 to it and keeps it open), `cpupower idle-set -D {}` (disables states with "
        "at least that exit "
        "latency), or boot with intel_idle.max_cstate=1 / processor.max_cstate=1 on x86.",
        kDeepIdleLatencyUs);
    if (!hold) {
        out.push_back(verdict(Severity::unknown, "cpuidle",
                              effect + ". Whether a process holds them off through "
                                       "/dev/cpu_dma_latency cannot be told: reading it needs "
                                       "root.",
                              "Run doctor as root to read the hold. " + fix));
        return;
    }
    out.push_back(verdict(
        Severity::warn, "cpuidle",
        fmt::format("{}, and nothing holds them off (/dev/cpu_dma_latency: {}{}).", effect,
                    *hold >= 2000000000 ? std::string("no request") : std::to_string(*hold) + " µs",
                    held.empty() ? "" : "; per-CPU limits only on CPU " + cpu_ranges(held)),
        fix));
}

void check_chrony(const SystemFingerprint& fp, std::vector<Verdict>& out) {
    const auto& chrony = fp.chrony;
    if (chrony.running) {
        out.push_back(
            verdict(Severity::ok, "chrony-running",
                    fmt::format("chronyd{} is running (PID {}).",
                                chrony.version.empty() ? "" : " " + chrony.version, chrony.pid)));
    } else {
        out.push_back(verdict(
            Severity::warn, "chrony-running",
            fmt::format("chronyd is {}: ppsbench cannot sample chrony's RMS offset, and with "
                        "nothing disciplining the system clock, PPS phase offsets drift with its "
                        "frequency error (detrended jitter is still measurable).",
                        chrony.installed ? "installed but not running" : "not installed"),
            chrony.installed ? "Start it (systemctl start chrony) with a refclock for the PPS "
                               "device in its configuration."
                             : "Install chrony (apt install chrony) and configure a refclock for "
                               "the PPS device."));
    }
    if (!fp.pps) {
        return;
    }
    const auto& pps = *fp.pps;
    for (const auto& refclock : chrony.refclocks) {
        if (refclock.uses_device) {
            out.push_back(verdict(Severity::ok, "chrony-refclock",
                                  fmt::format("chrony uses {}: `{}` ({}:{}).", pps.dev_path,
                                              refclock.text, refclock.file, refclock.line)));
            return;
        }
    }
    const std::string fix = fmt::format(
        "Add `refclock PPS {} lock NMEA refid PPS` (with a time-of-day source refid NMEA, e.g. "
        "`refclock SHM 0 refid NMEA noselect` from gpsd) to /etc/chrony/chrony.conf or a file in "
        "/etc/chrony/conf.d/, then restart chrony.",
        pps.dev_path);
    if (chrony.config_files.empty()) {
        out.push_back(verdict(Severity::warn, "chrony-refclock",
                              "no chrony configuration found (/etc/chrony/chrony.conf, "
                              "/etc/chrony.conf), so nothing is set up to use the PPS device.",
                              fix));
        return;
    }
    std::string others;
    for (const auto& refclock : chrony.refclocks) {
        others +=
            fmt::format("{}{} {}", others.empty() ? "" : ", ", refclock.driver, refclock.parameter);
    }
    out.push_back(verdict(
        Severity::warn, "chrony-refclock",
        fmt::format("no refclock in chrony's configuration uses {} (refclocks: {}), so chrony "
                    "does not discipline the clock to this PPS.",
                    pps.dev_path, others.empty() ? "none" : others),
        fix));
}

}  // namespace ppsbench::sysinfo::detail
