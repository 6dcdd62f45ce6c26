// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/sysinfo/diagnose.hpp"

#include <algorithm>

#include "sysinfo/checks.hpp"

namespace ppsbench::sysinfo {

TimestampContext timestamp_context(const SystemFingerprint& fingerprint) {
    return detail::assess(fingerprint).context;
}

std::vector<Verdict> diagnose(const SystemFingerprint& fingerprint) {
    using namespace detail;
    std::vector<Verdict> verdicts;
    if (fingerprint.image) {
        check_image_device(fingerprint, verdicts);
        check_image_running(fingerprint, verdicts);
        check_image_chrony(fingerprint, verdicts);
        check_refclock_edges(fingerprint, verdicts);
        return verdicts;
    }
    check_device(fingerprint, verdicts);
    if (fingerprint.pps) {
        check_pulses(*fingerprint.pps, verdicts);
        check_driver(*fingerprint.pps, verdicts);
        if (auto finding = assess(fingerprint); finding.verdict) {
            verdicts.push_back(std::move(*finding.verdict));
        }
        check_irq(fingerprint, verdicts);
        check_irq_thread_affinity(fingerprint, verdicts);
    }
    check_clocksource(fingerprint, verdicts);
    check_cpufreq(fingerprint.power, verdicts);
    check_cpuidle(fingerprint.power, verdicts);
    check_pcie_aspm(fingerprint, verdicts);
    check_eee(fingerprint, verdicts);
    check_chrony(fingerprint, verdicts);
    check_refclock_edges(fingerprint, verdicts);
    return verdicts;
}

bool has_failure(const std::vector<Verdict>& verdicts) {
    return std::any_of(verdicts.begin(), verdicts.end(),
                       [](const Verdict& v) { return v.severity == Severity::fail; });
}

std::string short_label(const SystemFingerprint& fingerprint) {
    const auto& kernel = fingerprint.kernel;
    if (fingerprint.image) {
        const auto& kernels = fingerprint.boot.kernels;
        std::string label = "image (not booted)";
        for (std::size_t i = 0; i < kernels.size(); ++i) {
            label += (i == 0 ? ", kernels " : ", ") + kernels[i];
        }
        return kernel.threadirqs ? label + ", boots with threadirqs" : label;
    }
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
        case Severity::unknown:
            return "unknown";
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
