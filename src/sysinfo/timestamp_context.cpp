// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <filesystem>

#include "sysinfo/checks.hpp"

namespace ppsbench::sysinfo::detail {

namespace {

// The exact fix wording for a force-threaded single pps-gpio handler; docs/doctor.md explains
// both options at length.
constexpr std::string_view kSplitHandlerFix =
    "Boot a kernel whose pps-gpio has the split handler (Debian 6.1.190 or later, upstream "
    "stable 6.1.188 or later; /proc/kallsyms then lists pps_gpio_irq_hardirq): its hard-IRQ part "
    "takes the timestamp at the edge and only pps_event() runs in the thread, which is the "
    "RT-safe fix. Marking the old handler IRQF_NO_THREAD also restores edge timestamps but is "
    "not RT-safe: pps_event() takes a spinlock_t and wakes waiters, which are sleeping "
    "operations on PREEMPT_RT. Or boot a kernel without PREEMPT_RT and without threadirqs.";

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

const ThreadInfo* irq_thread(const PpsDevice& pps) {
    return pps.irq && pps.irq->thread ? &*pps.irq->thread : nullptr;
}

// Forced threading is on, but either the handler kind or the thread is not known.
ContextFinding assess_gpio_forced_unknown(const KernelInfo& kernel, const PpsDevice& pps,
                                          const ThreadInfo* thread) {
    const std::string check = "pps-timestamp-context";
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

// The single handler without a thread where threading is forced: the fingerprint found no
// irq/N- thread for the interrupt while other interrupts had theirs, so it was requested with
// IRQF_NO_THREAD.
ContextFinding assess_gpio_no_thread(const KernelInfo& kernel, const PpsDevice& pps) {
    const int irq = pps.irq ? pps.irq->number : 0;
    return {
        TimestampContext::hard_irq,
        verdict(Severity::ok, "pps-timestamp-context",
                fmt::format("pps-gpio's single handler runs in hard IRQ although {} "
                            "force-threads interrupt handlers: IRQ {} has no irq/{}- thread "
                            "while other interrupts have theirs, so it was requested with "
                            "IRQF_NO_THREAD and the timestamp is taken at the edge.{}",
                            forcing_reason(kernel), irq, irq,
                            kernel.preempt_rt ? " This is not RT-safe: pps_event() then takes a "
                                                "spinlock_t and wakes waiters in hard-IRQ context."
                                              : ""))};
}

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
    if (pps.handler == HandlerKind::no_thread) {
        return assess_gpio_no_thread(kernel, pps);
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
        return assess_gpio_forced_unknown(kernel, pps, thread);
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

}  // namespace

ContextFinding assess(const SystemFingerprint& fingerprint) {
    if (!fingerprint.pps) {
        return {};
    }
    switch (fingerprint.pps->kind) {
        case PpsDriverKind::pps_gpio:
            return assess_gpio(fingerprint.kernel, *fingerprint.pps);
        case PpsDriverKind::pps_ldisc:
            return assess_ldisc(fingerprint.kernel, *fingerprint.pps);
        default:
            return {};
    }
}

}  // namespace ppsbench::sysinfo::detail
