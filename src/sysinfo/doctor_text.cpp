// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/sysinfo/doctor_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <utility>
#include <vector>

#include "ppsbench/core/text.hpp"
#include "sysinfo/parse.hpp"

namespace ppsbench::sysinfo {

namespace {

constexpr std::size_t kWidth = 100;
constexpr std::string_view kUnknown = "unknown";

std::string or_unknown(const std::string& text) {
    return text.empty() ? std::string(kUnknown) : text;
}

// Word-wraps `text` to kWidth columns; the first line follows `first`, later ones `indent`.
std::string wrap(std::string_view first, std::string_view indent, std::string_view text) {
    std::string out(first);
    std::size_t column = first.size();
    // A label such as "fix:" is followed by a blank; a row key already ends with one.
    bool line_start = first.empty() || first.back() == ' ';
    for (const auto word : core::split_whitespace(text)) {
        if (column + 1 + word.size() > kWidth && column > indent.size()) {
            out += "\n";
            out += indent;
            column = indent.size();
            line_start = true;
        }
        if (!line_start) {
            out += ' ';
            ++column;
        }
        out += word;
        column += word.size();
        line_start = false;
    }
    return out + "\n";
}

void row(std::ostream& out, std::string_view key, const std::string& value) {
    out << wrap(fmt::format("  {:<17} ", key), std::string(20, ' '), value);
}

std::string describe_event(const std::optional<PpsEvent>& event) {
    if (!event) {
        return "none";
    }
    return fmt::format("#{} at {}.{:09}", event->sequence, event->seconds, event->nanoseconds);
}

void write_pps(std::ostream& out, const SystemFingerprint& fp) {
    if (!fp.pps) {
        row(out, "PPS device",
            fp.requested_device.empty()
                ? "none in /sys/class/pps"
                : fmt::format("{} not found (available: {})", fp.requested_device,
                              fp.available_devices.empty()
                                  ? "none"
                                  : fmt::format("{}", fmt::join(fp.available_devices, ", "))));
        return;
    }
    const auto& pps = *fp.pps;
    std::string device =
        fmt::format("{} \"{}\", {}", pps.dev_path, or_unknown(pps.name), to_string(pps.kind));
    if (!pps.driver.empty()) {
        device += ", driver " + pps.driver;
    }
    if (!pps.path.empty()) {
        device += ", path " + pps.path;
    }
    if (pps.mode) {
        device += fmt::format(", mode 0x{:x}", *pps.mode);
    }
    row(out, "PPS device", device);
    std::string pulses = fmt::format("assert {}, clear {}", describe_event(pps.assert_first),
                                     describe_event(pps.clear_first));
    if (pps.pulses_sampled) {
        pulses += fmt::format("; after {} ms: assert {}, clear {}", pps.pulse_wait.count(),
                              describe_event(pps.assert_second), describe_event(pps.clear_second));
    }
    row(out, "PPS events", pulses);
    if (pps.irq) {
        const auto& irq = *pps.irq;
        row(out, "PPS IRQ",
            fmt::format("{} ({}) \"{}\", {} interrupts, affinity {}, effective {}", irq.number,
                        or_unknown(irq.controller), fmt::join(irq.actions, ", "), irq.count,
                        or_unknown(irq.smp_affinity_list),
                        or_unknown(irq.effective_affinity_list)));
        if (irq.thread) {
            const auto& t = *irq.thread;
            row(out, "IRQ thread",
                fmt::format("{} PID {} {} {}, allowed CPUs {}, last ran on CPU {}", t.comm, t.pid,
                            or_unknown(t.policy), t.rt_priority, or_unknown(t.cpus_allowed),
                            t.last_cpu ? std::to_string(*t.last_cpu) : std::string(kUnknown)));
        } else {
            row(out, "IRQ thread", "none found");
        }
    } else {
        row(out, "PPS IRQ", "not found");
    }
    if (pps.kind == PpsDriverKind::pps_gpio) {
        row(out, "IRQ handler",
            fmt::format("{}{}", to_string(pps.handler),
                        pps.handler_symbols.empty()
                            ? std::string(" (no pps_gpio symbols in /proc/kallsyms)")
                            : fmt::format(" ({})", fmt::join(pps.handler_symbols, ", "))));
    }
}

// config.txt's overlays: only when the root has one (a Raspberry Pi, its image).
void write_boot_files(std::ostream& out, const BootConfig& boot) {
    if (boot.config_file.empty()) {
        return;
    }
    std::vector<std::string> overlays;
    for (const auto& o : boot.overlays) {
        overlays.push_back(o.section == "all" ? o.text : fmt::format("{} [{}]", o.text, o.section));
    }
    row(out, "config.txt",
        fmt::format("{}: {}", boot.config_file,
                    overlays.empty() ? std::string("no dtoverlay")
                                     : fmt::format("dtoverlay {}", fmt::join(overlays, "; "))));
}

// The PHCs a PPS input could be wired to (a hardware reference for its bias) and linuxptp.
void write_ptp(std::ostream& out, const PtpInfo& ptp) {
    if (ptp.clocks.empty()) {
        row(out, "PTP clocks", "none (/sys/class/ptp is empty)");
    }
    const auto count = [](int n) { return n < 0 ? std::string("?") : std::to_string(n); };
    for (const auto& c : ptp.clocks) {
        std::string pins;
        for (const auto& p : c.pins) {
            pins += fmt::format("{}{} {}{}", pins.empty() ? "" : ", ", p.name, p.function,
                                p.function == "none" ? "" : fmt::format(" ch {}", p.channel));
        }
        row(out, "PTP clock",
            fmt::format(
                "/dev/{} {}{}: {} external-timestamp channel(s), {} pin(s){}{}", c.id,
                c.clock_name.empty() ? "(unnamed)" : c.clock_name,
                c.interfaces.empty() ? "" : fmt::format(" ({})", fmt::join(c.interfaces, ", ")),
                count(c.external_timestamps), count(c.programmable_pins),
                pins.empty() ? "" : " [" + pins + "]",
                c.external_timestamps > 0
                    ? fmt::format("; PPS reference: ppsbench run --source ptp:/dev/{}", c.id)
                    : ""));
    }
    std::string tools;
    for (const auto& t : ptp.tools) {
        tools += fmt::format("{}{} {}", tools.empty() ? "" : ", ", t.name,
                             t.running ? fmt::format("running (PID {})", t.pid) : "not running");
    }
    row(out, "linuxptp", tools);
}

// Clocksource, CPU power management, PCIe links and EEE: all of the running system.
void write_power(std::ostream& out, const SystemFingerprint& fp) {
    if (fp.image) {
        row(out, "power", "cannot tell from an image (clocksource, cpufreq, cpuidle, PCIe links)");
        return;
    }
    const auto& power = fp.power;
    row(out, "clocksource",
        fmt::format("{} (available: {})", or_unknown(power.clocksource),
                    or_unknown(power.available_clocksources)));
    std::string governors;
    for (const auto& g : power.governors) {
        governors += fmt::format("{}cpu{} {}", governors.empty() ? "" : ", ", g.cpu, g.governor);
    }
    row(out, "cpufreq", governors.empty() ? "not exposed" : governors);
    std::string idle;
    for (const auto& s : power.idle_states) {
        idle += fmt::format("{}{} {} µs ({}/{} CPUs)", idle.empty() ? "" : ", ", s.name,
                            s.exit_latency_us, s.cpus_enabled, s.cpus_total);
    }
    row(out, "cpuidle", idle.empty() ? "not exposed" : idle);
    if (!power.idle_states.empty()) {
        row(out, "cpu_dma_latency",
            power.cpu_dma_latency_us ? fmt::format("{} µs", *power.cpu_dma_latency_us)
                                     : std::string("unreadable (needs root)"));
    }
    if (!fp.pcie.aspm_policy.empty()) {
        row(out, "PCIe ASPM", "policy " + fp.pcie.aspm_policy);
    }
    for (const auto& nic : fp.eee) {
        row(out, "EEE",
            fmt::format("{} ({}): {}", nic.interface, nic.phc,
                        nic.status.empty() ? "unknown, " + nic.unknown_reason : nic.status));
    }
}

void write_fingerprint(std::ostream& out, const SystemFingerprint& fp) {
    const auto& kernel = fp.kernel;
    out << "System (what the checks read)\n";
    if (fp.sysroot != "/") {
        row(out, "sysroot", fp.sysroot);
    }
    if (fp.image) {
        row(out, "image", "not a running system: only its files are read");
        row(out, "kernels",
            fp.boot.kernels.empty()
                ? "none in /lib/modules"
                : fmt::format("{} (in /lib/modules)", fmt::join(fp.boot.kernels, ", ")));
    } else {
        row(out, "kernel", fmt::format("{}  {}", or_unknown(kernel.release), kernel.version));
        row(out, "preemption",
            kernel.preemption.empty()
                ? std::string(kUnknown)
                : fmt::format("{} (from {})", kernel.preemption, kernel.preemption_source));
    }
    // The options that were given, then the ones that were not: "threadirqs, isolcpus=3; not
    // set: nohz_full, irqaffinity" reads at a glance where a row of yes/no/- does not.
    std::vector<std::string> given;
    std::vector<std::string> absent;
    (kernel.threadirqs ? given : absent).emplace_back("threadirqs");
    for (const auto& [name, value] :
         {std::pair{"isolcpus", &kernel.isolcpus}, std::pair{"nohz_full", &kernel.nohz_full},
          std::pair{"irqaffinity", &kernel.irqaffinity}}) {
        if (*value) {
            given.push_back((*value)->empty() ? std::string(name) : name + ("=" + **value));
        } else {
            absent.emplace_back(name);
        }
    }
    row(out, "boot options",
        fmt::format(
            "{}{}{}{}", fmt::join(given, ", "), given.empty() || absent.empty() ? "" : "; ",
            absent.empty() ? std::string() : fmt::format("not set: {}", fmt::join(absent, ", ")),
            kernel.cmdline_source.empty() || kernel.cmdline_source == "/proc/cmdline"
                ? std::string()
                : fmt::format(" (from {})", kernel.cmdline_source)));
    write_boot_files(out, fp.boot);
    if (!fp.image) {
        write_pps(out, fp);
    }
    write_power(out, fp);
    const auto& chrony = fp.chrony;
    row(out, "chrony",
        fmt::format("{}, {}{}", chrony.installed ? "installed" : "not installed",
                    fp.image
                        ? std::string(chrony.enabled ? "enabled at boot" : "not enabled at boot")
                    : chrony.running ? fmt::format("running (PID {})", chrony.pid)
                                     : "not running",
                    chrony.version.empty() ? "" : ", version " + chrony.version));
    for (const auto& r : chrony.refclocks) {
        row(out, "chrony refclock",
            fmt::format("{}  ({}:{}){}", r.text, r.file, r.line,
                        r.uses_device ? "  <- this device" : ""));
    }
    if (fp.image) {
        row(out, "linuxptp", "cannot tell from an image whether it runs");
    } else {
        write_ptp(out, fp.ptp);
    }
}

std::string_view tag(Severity severity) {
    switch (severity) {
        case Severity::ok:
            return "[ OK ]";
        case Severity::warn:
            return "[WARN]";
        case Severity::fail:
            return "[FAIL]";
        case Severity::unknown:
            return "[ ?  ]";
    }
    return "[FAIL]";
}

}  // namespace

void write_doctor_text(std::ostream& out, const SystemFingerprint& fingerprint,
                       const std::vector<Verdict>& verdicts) {
    // Read top to bottom: the outcome, the checklist in the order a PPS signal travels (device,
    // pulses, timestamp context, clock, CPU, chrony) with each fix under its check, and only
    // then the facts the checks were made from.
    int counts[4] = {0, 0, 0, 0};
    for (const auto& verdict : verdicts) {
        ++counts[static_cast<int>(verdict.severity)];
    }
    out << "ppsbench doctor: " << short_label(fingerprint) << "\n"
        << fmt::format("{} fail, {} warn, {} ok{}\n", counts[2], counts[1], counts[0],
                       counts[3] == 0 ? "" : fmt::format(", {} cannot tell", counts[3]))
        << "\nChecklist\n";
    const std::string indent(9, ' ');
    for (const auto& verdict : verdicts) {
        out << wrap(fmt::format("  {} {}:", tag(verdict.severity), verdict.check), indent,
                    verdict.message);
        if (!verdict.fix.empty()) {
            out << wrap(indent + "fix:", indent, verdict.fix);
        }
    }
    out << "\n";
    write_fingerprint(out, fingerprint);
}

}  // namespace ppsbench::sysinfo
