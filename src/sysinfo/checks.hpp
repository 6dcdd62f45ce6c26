// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The checks behind diagnose() (diagnose.cpp), by subject: where the PPS timestamp is taken
// (timestamp_context.cpp), the PPS device, its pulses, driver and interrupt (pps_checks.cpp),
// and the clocksource, power management and chrony (system_checks.cpp).

#include <optional>
#include <string>
#include <vector>

#include "ppsbench/sysinfo/diagnose.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"

namespace ppsbench::sysinfo::detail {

inline Verdict verdict(Severity severity, std::string check, std::string message,
                       std::string fix = {}) {
    return Verdict{severity, std::move(check), std::move(message), std::move(fix)};
}

// A USB serial port: its DCD changes arrive in polled USB transfers, not in an interrupt.
inline bool is_usb_tty(const PpsDevice& pps) {
    return pps.path.find("/dev/ttyUSB") == 0 || pps.path.find("/dev/ttyACM") == 0;
}

// The judgement behind both timestamp_context() and the pps-timestamp-context verdict.
struct ContextFinding {
    TimestampContext context = TimestampContext::unknown;
    std::optional<Verdict> verdict;
};

ContextFinding assess(const SystemFingerprint& fingerprint);

void check_device(const SystemFingerprint& fp, std::vector<Verdict>& out);
void check_pulses(const PpsDevice& pps, std::vector<Verdict>& out);
void check_driver(const PpsDevice& pps, std::vector<Verdict>& out);
void check_irq(const SystemFingerprint& fp, std::vector<Verdict>& out);

// An image (image_checks.cpp): its boot files, and "cannot tell" for the running system.
void check_image_device(const SystemFingerprint& fp, std::vector<Verdict>& out);
void check_image_running(const SystemFingerprint& fp, std::vector<Verdict>& out);
void check_image_chrony(const SystemFingerprint& fp, std::vector<Verdict>& out);

// What else makes it late (latency_checks.cpp).
void check_irq_thread_affinity(const SystemFingerprint& fp, std::vector<Verdict>& out);
void check_pcie_aspm(const SystemFingerprint& fp, std::vector<Verdict>& out);
void check_eee(const SystemFingerprint& fp, std::vector<Verdict>& out);

void check_clocksource(const SystemFingerprint& fp, std::vector<Verdict>& out);
void check_cpufreq(const PowerInfo& power, std::vector<Verdict>& out);
void check_cpuidle(const PowerInfo& power, std::vector<Verdict>& out);
void check_chrony(const SystemFingerprint& fp, std::vector<Verdict>& out);
// The edge each PPS-like refclock takes (edge_checks.cpp).
void check_refclock_edges(const SystemFingerprint& fp, std::vector<Verdict>& out);

}  // namespace ppsbench::sysinfo::detail
