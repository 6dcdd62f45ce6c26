#include "ppsbench/sysinfo/diagnose.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>

namespace ppsbench::sysinfo {

namespace {

// An interrupt averaging more than this on the PPS interrupt's CPU is worth moving away.
constexpr double kBusyNeighbourRate = 1000.0;
// Idle states whose exit latency reaches this are "deep": a PPS edge that finds its CPU in
// one waits this long before the handler can start.
constexpr int kDeepIdleLatencyUs = 10;

// The exact fix wording for a force-threaded single pps-gpio handler; docs/doctor.md explains
// both options at length.
constexpr std::string_view kSplitHandlerFix =
    "Boot a kernel whose pps-gpio has the split handler (Debian 6.1.190 or later, upstream "
    "stable 6.1.188 or later; /proc/kallsyms then lists pps_gpio_irq_hardirq): its hard-IRQ part "
    "takes the timestamp at the edge and only pps_event() runs in the thread, which is the "
    "RT-safe fix. Marking the old handler IRQF_NO_THREAD also restores edge timestamps but is "
    "not RT-safe: pps_event() takes a spinlock_t and wakes waiters, which are sleeping "
    "operations on PREEMPT_RT. Or boot a kernel without PREEMPT_RT and without threadirqs.";

constexpr std::string_view kNoPulseFix =
    "Check the PPS wiring, the GPIO pin and edge configured for the driver (e.g. dtoverlay "
    "pps-gpio gpiopin=, assert_falling_edge=), and that the receiver has a fix: most GPS "
    "receivers emit PPS only while they have one.";

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

Verdict verdict(Severity severity, std::string check, std::string message, std::string fix = {}) {
    return Verdict{severity, std::move(check), std::move(message), std::move(fix)};
}

std::string forcing_reason(const KernelInfo& kernel) {
    if (kernel.preempt_rt) {
        return "PREEMPT_RT";
    }
    return kernel.threadirqs ? "the threadirqs boot option" : "";
}

std::string describe_thread(const ThreadInfo& thread) {
    std::string text = fmt::format("{} (PID {}", thread.comm, thread.pid);
    if (!thread.policy.empty()) {
        text += fmt::format(", {} {}", thread.policy, thread.rt_priority);
    }
    if (!thread.cpus_allowed.empty()) {
        text += fmt::format(", allowed CPUs {}", thread.cpus_allowed);
    }
    if (thread.last_cpu) {
        text += fmt::format(", last ran on CPU {}", *thread.last_cpu);
    }
    return text + ")";
}

bool is_usb_tty(const PpsDevice& pps) {
    return pps.path.find("/dev/ttyUSB") == 0 || pps.path.find("/dev/ttyACM") == 0;
}

const ThreadInfo* irq_thread(const PpsDevice& pps) {
    return pps.irq && pps.irq->thread ? &*pps.irq->thread : nullptr;
}

// The judgement behind both timestamp_context() and the pps-timestamp-context verdict.
struct ContextFinding {
    TimestampContext context = TimestampContext::unknown;
    std::optional<Verdict> verdict;
};

ContextFinding assess_gpio(const KernelInfo& kernel, const PpsDevice& pps) {
    const auto* thread = irq_thread(pps);
    const bool forced = kernel.forced_irq_threading();
    const std::string check = "pps-timestamp-context";
    if (pps.handler == HandlerKind::split) {
        std::string message =
            "pps-gpio has the split handler (pps_gpio_irq_hardirq in /proc/kallsyms): the "
            "timestamp is taken in hard-IRQ context at the edge";
        if (thread != nullptr) {
            message += fmt::format(
                "; the thread {} only runs pps_event(), so its wake-up latency does not reach "
                "the timestamp",
                describe_thread(*thread));
        }
        return {TimestampContext::hard_irq, verdict(Severity::ok, check, message + ".")};
    }
    if (pps.handler == HandlerKind::single && thread != nullptr) {
        const auto reason = forced ? forcing_reason(kernel) : std::string("the kernel");
        return {TimestampContext::thread,
                verdict(Severity::fail, check,
                        fmt::format(
                            "PPS timestamps are taken in the thread {}, not at the interrupt "
                            "edge: {} force-threads pps-gpio's single handler "
                            "(pps_gpio_irq_handler), so pps_get_ts() runs only after that thread "
                            "is woken and scheduled, and every timestamp carries its wake-up "
                            "latency and jitter. Pinning the thread to a CPU or raising its "
                            "priority can shorten that delay but cannot remove it.",
                            describe_thread(*thread), reason),
                        std::string(kSplitHandlerFix))};
    }
    if (forced) {
        // Forced threading is on, but either the handler kind or the thread is not known.
        std::string message;
        if (pps.handler == HandlerKind::single) {
            message = fmt::format(
                "{} force-threads request_irq() handlers and this pps-gpio has the single "
                "handler, yet no irq/{}- thread was found. Either the handler was marked "
                "IRQF_NO_THREAD (timestamps at the edge, but not RT-safe: pps_event() then takes "
                "a sleeping lock in hard-IRQ context) or the process list could not be read.",
                forcing_reason(kernel), pps.irq ? std::to_string(pps.irq->number) : "N");
        } else {
            message = fmt::format(
                "{} force-threads interrupt handlers{}, but /proc/kallsyms shows neither "
                "pps_gpio_irq_hardirq (split handler: timestamp in hard IRQ) nor "
                "pps_gpio_irq_handler (old handler: timestamp in the thread), so ppsbench cannot "
                "tell where the timestamp is taken. The thread's presence alone proves nothing.",
                forcing_reason(kernel),
                thread != nullptr ? fmt::format(" and {} exists", describe_thread(*thread)) : "");
        }
        return {TimestampContext::unknown,
                verdict(Severity::warn, check, message,
                        "Check `grep pps_gpio /proc/kallsyms` (as root if it shows nothing), or "
                        "measure: compare `ppsbench run` here with a boot without PREEMPT_RT and "
                        "threadirqs. " +
                            std::string(kSplitHandlerFix))};
    }
    if (thread != nullptr) {
        // A thread although nothing forces one: the driver asked for it, which only the split
        // handler does, yet its symbol was not seen.
        return {TimestampContext::unknown,
                verdict(Severity::warn, check,
                        fmt::format("the driver requested a threaded interrupt ({}) but "
                                    "/proc/kallsyms does not show which pps-gpio handler is "
                                    "loaded, so ppsbench cannot tell where the timestamp is "
                                    "taken.",
                                    describe_thread(*thread)),
                        "Check `grep pps_gpio /proc/kallsyms` as root.")};
    }
    std::string message =
        "pps-gpio's handler runs in hard-IRQ context (neither PREEMPT_RT nor threadirqs forces "
        "it into a thread), so the timestamp is taken at the edge.";
    if (pps.handler == HandlerKind::single) {
        message +=
            " Note: this driver has the old single handler; on PREEMPT_RT or with threadirqs it "
            "would take the timestamp in a thread.";
    }
    return {TimestampContext::hard_irq, verdict(Severity::ok, check, message)};
}

// The project's lab module (tests/lab/module/ppsbench_lab.c): the same rules as pps-gpio, but
// the handler shape comes from the module's `mode` parameter, so the messages name that file
// instead of /proc/kallsyms, and the fix is a module parameter.
ContextFinding assess_lab(const KernelInfo& kernel, const PpsDevice& pps) {
    constexpr std::string_view kParameter = "/sys/module/ppsbench_lab/parameters/mode";
    constexpr std::string_view kLabFix =
        "Load ppsbench_lab with mode=split, the shape of pps-gpio since upstream stable "
        "6.1.188 (RT-safe). mode=nothread (IRQF_NO_THREAD) also gives edge timestamps but is "
        "not RT-safe: pps_event() takes a spinlock_t and wakes waiters in hard-IRQ context.";
    const auto* thread = irq_thread(pps);
    const bool forced = kernel.forced_irq_threading();
    const std::string check = "pps-timestamp-context";
    switch (pps.handler) {
        case HandlerKind::split: {
            std::string message = fmt::format(
                "the lab module runs its split handler (mode=split in {}): the hard-IRQ part "
                "takes the timestamp at the edge",
                kParameter);
            if (thread != nullptr) {
                message +=
                    fmt::format("; the thread {} only runs pps_event()", describe_thread(*thread));
            }
            return {TimestampContext::hard_irq, verdict(Severity::ok, check, message + ".")};
        }
        case HandlerKind::no_thread:
            return {TimestampContext::hard_irq,
                    verdict(Severity::ok, check,
                            fmt::format("the lab module requested its single handler with "
                                        "IRQF_NO_THREAD (mode=nothread in {}), so it is never "
                                        "force-threaded and the timestamp is taken in hard IRQ "
                                        "at the edge.{}",
                                        kParameter,
                                        kernel.preempt_rt
                                            ? " This is not RT-safe: pps_event() then takes a "
                                              "spinlock_t and wakes waiters in hard-IRQ context."
                                            : ""))};
        case HandlerKind::single:
            if (!forced) {
                return {TimestampContext::hard_irq,
                        verdict(Severity::ok, check,
                                fmt::format("the lab module's single handler (mode=threaded in "
                                            "{}) runs in hard IRQ: neither PREEMPT_RT nor "
                                            "threadirqs forces it into a thread.",
                                            kParameter))};
            }
            if (thread != nullptr) {
                return {TimestampContext::thread,
                        verdict(Severity::fail, check,
                                fmt::format("PPS timestamps are taken in the thread {}, not at "
                                            "the interrupt edge: {} force-threads the lab "
                                            "module's single handler (mode=threaded in {}), so "
                                            "pps_get_ts() runs only after that thread is woken "
                                            "and scheduled.",
                                            describe_thread(*thread), forcing_reason(kernel),
                                            kParameter),
                                std::string(kLabFix))};
            }
            return {TimestampContext::unknown,
                    verdict(Severity::warn, check,
                            fmt::format("{} force-threads the lab module's single handler "
                                        "(mode=threaded in {}), yet no irq/{}- thread was found.",
                                        forcing_reason(kernel), kParameter,
                                        pps.irq ? std::to_string(pps.irq->number) : "N"),
                            "Check `grep irq/ /proc/[0-9]*/comm`.")};
        case HandlerKind::unknown:
            break;
    }
    return {
        TimestampContext::unknown,
        verdict(Severity::warn, check,
                fmt::format("the lab module's handler mode could not be read from {}.", kParameter),
                "Check that ppsbench_lab is loaded and sysfs is mounted.")};
}

ContextFinding assess_ldisc(const KernelInfo& kernel, const PpsDevice& pps) {
    const std::string check = "pps-timestamp-context";
    if (is_usb_tty(pps)) {
        return {};  // no interrupt of its own; the pps-driver verdict explains
    }
    const auto* thread = irq_thread(pps);
    if (thread != nullptr) {
        return {
            TimestampContext::thread,
            verdict(Severity::fail, check,
                    fmt::format("PPS timestamps are taken in the thread {}, not at the DCD edge: "
                                "pps-ldisc takes its timestamp inside the serial port's interrupt "
                                "handler, which {} runs in that thread, so every timestamp carries "
                                "the thread's wake-up latency and jitter. Pinning the thread or "
                                "raising its priority can shorten that delay but cannot remove it.",
                                describe_thread(*thread),
                                kernel.forced_irq_threading() ? forcing_reason(kernel)
                                                              : std::string("the kernel")),
                    "Serial ports have no split handler. For edge timestamps boot a kernel "
                    "without PREEMPT_RT and without threadirqs, or wire the PPS to a GPIO and "
                    "use pps-gpio with its split handler (Debian 6.1.190+, upstream stable "
                    "6.1.188+).")};
    }
    if (kernel.forced_irq_threading()) {
        return {TimestampContext::unknown,
                verdict(Severity::warn, check,
                        fmt::format("{} force-threads the serial port's interrupt handler, in "
                                    "which pps-ldisc takes its timestamp, but no thread for its "
                                    "interrupt was found, so ppsbench cannot confirm where the "
                                    "timestamp is taken.",
                                    forcing_reason(kernel)),
                        fmt::format("Check `grep {} /proc/interrupts` and `grep irq/ "
                                    "/proc/[0-9]*/comm` for its thread.",
                                    std::filesystem::path(pps.path).filename().string()))};
    }
    return {TimestampContext::hard_irq,
            verdict(Severity::ok, check,
                    "pps-ldisc takes its timestamp in the serial port's hard-IRQ handler (no "
                    "forced threading), at the DCD edge.")};
}

ContextFinding assess(const SystemFingerprint& fingerprint) {
    if (!fingerprint.pps) {
        return {};
    }
    switch (fingerprint.pps->kind) {
        case PpsDriverKind::pps_gpio:
            return assess_gpio(fingerprint.kernel, *fingerprint.pps);
        case PpsDriverKind::pps_ldisc:
            return assess_ldisc(fingerprint.kernel, *fingerprint.pps);
        case PpsDriverKind::ppsbench_lab:
            return assess_lab(fingerprint.kernel, *fingerprint.pps);
        default:
            return {};
    }
}

void check_device(const SystemFingerprint& fp, std::vector<Verdict>& out) {
    if (fp.pps) {
        const auto& pps = *fp.pps;
        std::string message =
            fmt::format("{}: \"{}\", {}", pps.dev_path, pps.name,
                        pps.driver.empty() ? std::string(to_string(pps.kind)) : pps.driver);
        if (pps.irq) {
            message += fmt::format(", IRQ {}", pps.irq->number);
        }
        out.push_back(verdict(Severity::ok, "pps-device", message + "."));
        return;
    }
    std::string available = "none";
    if (!fp.available_devices.empty()) {
        available.clear();
        for (const auto& id : fp.available_devices) {
            available += (available.empty() ? "/dev/" : ", /dev/") + id;
        }
    }
    if (!fp.requested_device.empty()) {
        out.push_back(verdict(
            Severity::fail, "pps-device",
            fmt::format(
                "no PPS device {}: /sys/class/pps has no such entry (PPS devices here: {}).",
                fp.requested_device, available),
            "Name an existing device, or load the PPS client that should provide it."));
        return;
    }
    out.push_back(verdict(
        Severity::fail, "pps-device",
        "no PPS device: /sys/class/pps lists none, so there is nothing to measure.",
        "Load and configure a PPS client: on a Raspberry Pi add dtoverlay=pps-gpio,gpiopin=<pin> "
        "to config.txt and reboot; for a serial port's DCD line attach pps-ldisc with "
        "`ldattach PPS /dev/ttyS0`. Then check `ls /sys/class/pps`."));
}

std::string describe_event(const PpsEvent& event) {
    return fmt::format("#{} at {}.{:09}", event.sequence, event.seconds, event.nanoseconds);
}

void check_pulses(const PpsDevice& pps, std::vector<Verdict>& out) {
    const std::string check = "pps-pulses";
    if (!pps.assert_first && !pps.clear_first) {
        out.push_back(
            verdict(Severity::warn, check,
                    fmt::format("could not read /sys/class/pps/{}/assert or clear.", pps.id),
                    "Check that sysfs is mounted and readable."));
        return;
    }
    const auto sequence = [](const std::optional<PpsEvent>& event) {
        return event ? event->sequence : 0;
    };
    const auto first = sequence(pps.assert_first) + sequence(pps.clear_first);
    if (first == 0) {
        out.push_back(verdict(Severity::fail, check,
                              fmt::format("{} has not captured a single pulse since it was "
                                          "registered (assert and clear sequence 0).",
                                          pps.dev_path),
                              std::string(kNoPulseFix)));
        return;
    }
    const auto& latest = pps.assert_first ? *pps.assert_first : *pps.clear_first;
    if (!pps.pulses_sampled) {
        out.push_back(verdict(
            Severity::warn, check,
            fmt::format("pulse activity not checked (no wait): the last captured edge is {}.",
                        describe_event(latest)),
            "Run without --pulse-wait 0 to see whether pulses are still arriving."));
        return;
    }
    const auto second = sequence(pps.assert_second) + sequence(pps.clear_second);
    const double waited = static_cast<double>(pps.pulse_wait.count()) / 1000.0;
    if (second == first) {
        out.push_back(verdict(Severity::fail, check,
                              fmt::format("no pulse in {:.1f} s: {} stays at {}; the source has "
                                          "stopped or lost its signal.",
                                          waited, pps.dev_path, describe_event(latest)),
                              std::string(kNoPulseFix)));
        return;
    }
    out.push_back(verdict(Severity::ok, check,
                          fmt::format("{} new edge(s) in {:.1f} s (sequence {} -> {}).",
                                      second - first, waited, first, second)));
}

void check_driver(const PpsDevice& pps, std::vector<Verdict>& out) {
    const std::string check = "pps-driver";
    switch (pps.kind) {
        case PpsDriverKind::ktimer:
            out.push_back(verdict(
                Severity::warn, check,
                "pps-ktimer is a software test source: its pulses come from a kernel timer, not "
                "from a signal, so measurements describe timer latency, not PPS reception.",
                "Use it to try ppsbench only; measure the device of the real PPS signal."));
            break;
        case PpsDriverKind::ptp:
            out.push_back(verdict(
                Severity::warn, check,
                "a PTP hardware clock's PPS events are stamped with the system clock when the "
                "NIC driver reports them; ppsbench does not diagnose that path.",
                "Compare with phc2sys or chrony's PHC refclock, which read the clock directly."));
            break;
        case PpsDriverKind::pps_ldisc:
            if (is_usb_tty(pps)) {
                out.push_back(verdict(
                    Severity::warn, check,
                    fmt::format("pps-ldisc on the USB serial port {}: the DCD change reaches the "
                                "kernel in a USB transfer polled every 1 ms (full speed) or 125 µs "
                                "(high speed), so timestamps carry up to that much jitter.",
                                pps.path),
                    "Use a UART of the board (ttyS, ttyAMA) or a GPIO with pps-gpio."));
            }
            break;
        case PpsDriverKind::unknown:
            out.push_back(verdict(
                Severity::warn, check,
                fmt::format("cannot tell which driver provides {} (name \"{}\"{}), so where its "
                            "timestamp is taken is not diagnosed.",
                            pps.dev_path, pps.name,
                            pps.driver.empty() ? "" : ", driver " + pps.driver),
                "Check /sys/class/pps/" + pps.id + "/device/uevent."));
            break;
        case PpsDriverKind::ppsbench_lab:
            out.push_back(verdict(
                Severity::warn, check,
                "ppsbench-lab is ppsbench's own test module: its edges come from a kernel "
                "timer that raises a virtual GPIO interrupt, so measurements describe that path "
                "on this kernel, not PPS reception.",
                "Use it to test ppsbench (tests/lab/); measure the device of the real PPS "
                "signal."));
            break;
        case PpsDriverKind::pps_gpio:
            break;
    }
}

void check_irq(const SystemFingerprint& fp, std::vector<Verdict>& out) {
    const auto& pps = *fp.pps;
    const bool has_own_irq = pps.kind == PpsDriverKind::pps_gpio ||
                             pps.kind == PpsDriverKind::ppsbench_lab ||
                             (pps.kind == PpsDriverKind::pps_ldisc && !is_usb_tty(pps));
    if (!has_own_irq) {
        return;
    }
    if (!pps.irq) {
        out.push_back(verdict(
            Severity::warn, "pps-irq",
            fmt::format("no interrupt for \"{}\" in /proc/interrupts, so its IRQ thread and CPU "
                        "could not be checked.",
                        pps.kind == PpsDriverKind::pps_ldisc ? pps.path : pps.name),
            "Check `cat /proc/interrupts` for the PPS interrupt's name."));
        return;
    }
    const auto& irq = *pps.irq;
    std::vector<const NeighbourIrq*> busy;
    for (const auto& neighbour : irq.busy_neighbours) {
        if (neighbour.rate_per_second >= kBusyNeighbourRate) {
            busy.push_back(&neighbour);
        }
    }
    if (busy.empty() || !irq.serving_cpu) {
        return;
    }
    std::string list;
    for (const auto* neighbour : busy) {
        list += fmt::format("{}IRQ {} ({}) at {:.0f}/s", list.empty() ? "" : ", ", neighbour->irq,
                            neighbour->actions, neighbour->rate_per_second);
    }
    out.push_back(verdict(
        Severity::warn, "pps-irq-cpu",
        fmt::format("CPU {} takes the PPS interrupt {} and also {} (averages since boot): while "
                    "one of their hard-IRQ handlers runs, the PPS interrupt waits, which shows "
                    "as occasional late timestamps.",
                    *irq.serving_cpu, irq.number, list),
        fmt::format("Steer the busy interrupts to other CPUs (echo <cpus> > "
                    "/proc/irq/{}/smp_affinity_list, or irqaffinity= on the kernel command line; "
                    "stop irqbalance from moving them back), or the PPS interrupt if its "
                    "controller allows it.",
                    busy.front()->irq)));
}

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

void check_cpufreq(const PowerInfo& power, std::vector<Verdict>& out) {
    if (power.governors.empty()) {
        return;
    }
    std::vector<std::pair<std::string, std::vector<int>>> others;
    for (const auto& [cpu, governor] : power.governors) {
        if (governor == "performance") {
            continue;
        }
        auto it = std::find_if(others.begin(), others.end(),
                               [&](const auto& entry) { return entry.first == governor; });
        if (it == others.end()) {
            others.push_back({governor, {}});
            it = others.end() - 1;
        }
        it->second.push_back(cpu);
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

void check_cpuidle(const PowerInfo& power, std::vector<Verdict>& out) {
    if (power.idle_states.empty()) {
        return;
    }
    std::string deep;
    for (const auto& state : power.idle_states) {
        if (state.exit_latency_us >= kDeepIdleLatencyUs && state.cpus_enabled > 0) {
            deep += fmt::format("{}{} ({} µs exit latency, enabled on {}/{} CPUs)",
                                deep.empty() ? "" : ", ", state.name, state.exit_latency_us,
                                state.cpus_enabled, state.cpus_total);
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
    out.push_back(verdict(
        Severity::warn, "cpuidle",
        fmt::format("deep idle states are enabled: {}. A PPS edge arrives once a second, usually "
                    "while its CPU sleeps, and waits for the CPU to wake before the handler "
                    "runs, adding up to that latency and its variation to the timestamp.",
                    deep),
        fmt::format("Keep CPUs out of deep states while measuring: `cpupower idle-set -D {}` "
                    "(disables states with at least that exit latency), or boot with "
                    "intel_idle.max_cstate=1 / processor.max_cstate=1 on x86.",
                    kDeepIdleLatencyUs)));
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

}  // namespace

TimestampContext timestamp_context(const SystemFingerprint& fingerprint) {
    return assess(fingerprint).context;
}

std::vector<Verdict> diagnose(const SystemFingerprint& fingerprint) {
    std::vector<Verdict> verdicts;
    check_device(fingerprint, verdicts);
    if (fingerprint.pps) {
        check_pulses(*fingerprint.pps, verdicts);
        check_driver(*fingerprint.pps, verdicts);
        if (auto finding = assess(fingerprint); finding.verdict) {
            verdicts.push_back(std::move(*finding.verdict));
        }
        check_irq(fingerprint, verdicts);
    }
    check_clocksource(fingerprint, verdicts);
    check_cpufreq(fingerprint.power, verdicts);
    check_cpuidle(fingerprint.power, verdicts);
    check_chrony(fingerprint, verdicts);
    return verdicts;
}

bool has_failure(const std::vector<Verdict>& verdicts) {
    return std::any_of(verdicts.begin(), verdicts.end(),
                       [](const Verdict& v) { return v.severity == Severity::fail; });
}

std::string short_label(const SystemFingerprint& fingerprint) {
    const auto& kernel = fingerprint.kernel;
    std::string label = kernel.release.empty() ? "unknown kernel" : kernel.release;
    std::string model = kernel.preemption;
    if (model == "full") {
        model = "PREEMPT";
    } else if (model == "none or voluntary") {
        model = "PREEMPT_NONE/VOLUNTARY";
    } else if (!model.empty() && kernel.preemption_source == "/sys/kernel/debug/sched/preempt") {
        model = "PREEMPT_DYNAMIC (" + model + ")";
    }
    if (!model.empty()) {
        label += " " + model;
    }
    if (kernel.threadirqs && !kernel.preempt_rt) {
        label += " threadirqs";
    }
    if (!fingerprint.pps) {
        return label + ", no PPS";
    }
    switch (timestamp_context(fingerprint)) {
        case TimestampContext::thread:
            return label + ", PPS IRQ threaded";
        case TimestampContext::hard_irq:
            if (fingerprint.pps->handler == HandlerKind::split && fingerprint.pps->irq &&
                fingerprint.pps->irq->thread) {
                return label + ", PPS IRQ split (timestamp in hard IRQ)";
            }
            return label + ", PPS IRQ hard";
        case TimestampContext::unknown:
            break;
    }
    return label + ", PPS IRQ path unknown";
}

std::string_view to_string(Severity severity) {
    switch (severity) {
        case Severity::ok:
            return "ok";
        case Severity::warn:
            return "warn";
        case Severity::fail:
            return "fail";
    }
    return "fail";
}

std::string_view to_string(TimestampContext context) {
    switch (context) {
        case TimestampContext::hard_irq:
            return "hard-irq";
        case TimestampContext::thread:
            return "thread";
        case TimestampContext::unknown:
            break;
    }
    return "unknown";
}

}  // namespace ppsbench::sysinfo
