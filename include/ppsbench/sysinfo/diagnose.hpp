// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Turns a SystemFingerprint into verdicts: what costs PPS timestamp accuracy on this system,
// why, and what to do about it. Pure: no I/O, so every rule is tested on fixture fingerprints.

#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/sysinfo/fingerprint.hpp"

namespace ppsbench::sysinfo {

// `unknown`: the check could not be made from what is readable (an image has no running
// system; a setting needs root to read). It says so and how to find out; it never counts as a
// failure, nor as a pass.
enum class Severity { ok, warn, fail, unknown };

struct Verdict {
    Severity severity = Severity::ok;
    std::string check;    // stable id, e.g. "pps-timestamp-context"
    std::string message;  // what was found and why it matters
    std::string fix;      // what to do; empty for ok verdicts

    friend bool operator==(const Verdict&, const Verdict&) = default;
};

// Where the PPS timestamp (pps_get_ts()) is taken.
enum class TimestampContext {
    unknown,   // cannot tell from what is readable
    hard_irq,  // at the interrupt edge
    thread,    // in an IRQ thread, after its wake-up latency
};

// The single judgement the threaded-IRQ diagnosis and the short label share.
TimestampContext timestamp_context(const SystemFingerprint& fingerprint);

// Verdicts in a fixed order (device, pulses, driver, timestamp context, IRQ neighbours and
// thread affinity, clocksource, cpufreq, cpuidle, PCIe power states, Energy-Efficient Ethernet,
// chrony and the edge its refclock uses). On an image, what only a running system shows is one
// `unknown` verdict instead.
std::vector<Verdict> diagnose(const SystemFingerprint& fingerprint);

bool has_failure(const std::vector<Verdict>& verdicts);

// One line for report row labels, e.g. "6.1.0-27-rt-amd64 PREEMPT_RT, PPS IRQ threaded".
std::string short_label(const SystemFingerprint& fingerprint);

std::string_view to_string(Severity severity);
std::string_view to_string(TimestampContext context);

}  // namespace ppsbench::sysinfo
