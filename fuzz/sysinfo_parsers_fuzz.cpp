// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer harness: the pure parsers behind the kernel fingerprint and `doctor`:
// /proc/interrupts, /proc/PID/stat and status, the kernel command line, /proc/PID/cmdline,
// cpulists, sysfs PPS events, the preemption model, and chrony.conf's directives and refclock
// lookup. They never throw: any bytes give a value or "nothing"; no sanitizer may report.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ppsbench/chrony/conf.hpp"
#include "sysinfo/parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ppsbench::sysinfo::detail;
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    for (const auto& line : parse_interrupts(text)) {
        if (line.number && line.irq.empty()) {
            __builtin_trap();  // a numbered interrupt always has its name
        }
    }
    if (const auto stat = parse_pid_stat(text)) {
        (void)policy_name(stat->policy);
    }
    (void)status_field(text, "Cpus_allowed_list");
    (void)cmdline_parameter(text, "threadirqs");
    (void)cmdline_parameter(text, "isolcpus");
    (void)option_value(text, "-f");
    (void)parse_pps_event(text);
    (void)preemption_from_debugfs(text);
    (void)preemption_from_version(text);
    (void)parse_integer(text);
    (void)parse_cpu_list(text);

    const auto directives = ppsbench::chrony::parse_conf_text(text, "fuzz.conf");
    for (const auto& directive : directives) {
        if (directive.words.empty()) {
            __builtin_trap();  // a directive has at least its name
        }
    }
    (void)ppsbench::chrony::refclock_refid(directives, "/dev/pps0");
    (void)ppsbench::chrony::refclock_refid_in(text, "/dev/pps0");
    return 0;
}
