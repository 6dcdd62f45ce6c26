// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/sysinfo/fingerprint.hpp"
#include "ppsbench/core/text.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <filesystem>

#include "ppsbench/core/error.hpp"
#include "sysinfo/boot_files.hpp"
#include "sysinfo/parse.hpp"
#include "sysinfo/readers.hpp"
#include "sysinfo/sysroot.hpp"

namespace ppsbench::sysinfo {

using detail::SysRoot;

namespace detail {

std::vector<Process> scan_processes(const SysRoot& root) {
    std::vector<Process> processes;
    for (const auto& name : root.list("/proc")) {
        const auto pid = detail::parse_integer(name);
        if (!pid) {
            continue;
        }
        if (auto comm = root.read_line("/proc/" + name + "/comm")) {
            processes.push_back({static_cast<int>(*pid), std::move(*comm)});
        }
    }
    return processes;
}

}  // namespace detail

namespace {

void set_cmdline(KernelInfo& kernel, std::string cmdline, std::string source) {
    kernel.cmdline = std::move(cmdline);
    kernel.cmdline_source = std::move(source);
    kernel.threadirqs = detail::cmdline_parameter(kernel.cmdline, "threadirqs").has_value();
    kernel.isolcpus = detail::cmdline_parameter(kernel.cmdline, "isolcpus");
    kernel.nohz_full = detail::cmdline_parameter(kernel.cmdline, "nohz_full");
    kernel.irqaffinity = detail::cmdline_parameter(kernel.cmdline, "irqaffinity");
}

// A mounted SD card or an unbooted tree: none of the files a running kernel provides. A
// snapshot copied from a running system has them, the image's empty mount points do not.
bool is_image(const SysRoot& root) {
    return !root.is_live() && !root.exists("/proc/cmdline") &&
           !root.exists("/proc/sys/kernel/osrelease") && !root.exists("/proc/interrupts") &&
           root.list("/sys/class").empty();
}

KernelInfo read_kernel(const SysRoot& root) {
    KernelInfo kernel;
    kernel.release = root.read_line("/proc/sys/kernel/osrelease").value_or("");
    kernel.version = root.read_line("/proc/sys/kernel/version").value_or("");
    if (const auto realtime = root.read_line("/sys/kernel/realtime")) {
        kernel.realtime_sysfs = *realtime == "1";
    }
    kernel.preemption = detail::preemption_from_version(kernel.version);
    kernel.preemption_source = kernel.version.empty() ? "" : "version string";
    kernel.preempt_rt = kernel.preemption == "PREEMPT_RT" || kernel.realtime_sysfs == true;
    if (kernel.preempt_rt) {
        kernel.preemption = "PREEMPT_RT";
        kernel.preemption_source =
            kernel.realtime_sysfs == true ? "/sys/kernel/realtime" : "version string";
    } else if (const auto debugfs = root.read_line("/sys/kernel/debug/sched/preempt")) {
        // Only root can read debugfs; it names the model a PREEMPT_DYNAMIC kernel runs with.
        if (auto model = detail::preemption_from_debugfs(*debugfs)) {
            kernel.preemption = std::move(*model);
            kernel.preemption_source = "/sys/kernel/debug/sched/preempt";
        }
    }
    if (auto cmdline = root.read_line("/proc/cmdline")) {
        set_cmdline(kernel, std::move(*cmdline), "/proc/cmdline");
    }
    if (const auto uptime = root.read_line("/proc/uptime")) {
        const auto words = core::split_whitespace(*uptime);
        if (!words.empty()) {
            // from_chars, unlike stod, ignores the locale's decimal separator.
            double seconds = 0;
            const auto [end, ec] =
                std::from_chars(words[0].data(), words[0].data() + words[0].size(), seconds);
            if (ec == std::errc()) {
                kernel.uptime_seconds = seconds;
            }
        }
    }
    const auto cpuinfo = root.read("/proc/cpuinfo", 64U << 10).value_or("");
    if (cpuinfo.find("vendor_id") != std::string::npos) {
        kernel.arch = "x86";
    } else if (cpuinfo.find("CPU implementer") != std::string::npos) {
        kernel.arch = "arm";
    }
    return kernel;
}

// "/dev/pps0", "pps0" -> "pps0"; a udev symlink such as /dev/gpspps0 is followed on the live
// system. Anything else is a usage error: the doctor cannot guess what was meant.
std::string device_id(const SysRoot& root, const std::string& device) {
    std::string candidate = device;
    if (candidate.starts_with("/")) {
        std::error_code ec;
        const auto resolved = root.resolve(candidate);
        if (std::filesystem::is_symlink(resolved, ec)) {
            const auto target = std::filesystem::read_symlink(resolved, ec);
            if (!ec) {
                candidate = target.filename().string();
            }
        } else {
            candidate = std::filesystem::path(candidate).filename().string();
        }
    }
    const bool valid = candidate.starts_with("pps") && candidate.size() > 3 &&
                       detail::parse_integer(std::string_view(candidate).substr(3)).has_value();
    if (!valid) {
        throw core::UsageError(fmt::format(
            "'{}' is not a PPS device; give one such as /dev/pps0 (see ls /sys/class/pps)",
            device));
    }
    return candidate;
}

}  // namespace

SystemFingerprint read_fingerprint(const FingerprintOptions& options) {
    const SysRoot root(options.sysroot);
    SystemFingerprint fingerprint;
    fingerprint.sysroot = options.sysroot.string();
    fingerprint.requested_device = options.device;
    const auto processes = detail::scan_processes(root);
    fingerprint.kernel = read_kernel(root);
    fingerprint.image = is_image(root);
    fingerprint.boot = detail::read_boot_config(root);
    if (fingerprint.image && !fingerprint.boot.cmdline_file.empty()) {
        // The command line the image's kernel will boot with, in place of a running one's.
        set_cmdline(fingerprint.kernel, fingerprint.boot.cmdline, fingerprint.boot.cmdline_file);
    }
    for (const auto& entry : root.list("/sys/class/pps")) {
        if (entry.starts_with("pps")) {
            fingerprint.available_devices.push_back(entry);
        }
    }
    // Natural order, so pps10 sorts after pps2.
    std::sort(fingerprint.available_devices.begin(), fingerprint.available_devices.end(),
              [](const std::string& a, const std::string& b) {
                  return a.size() != b.size() ? a.size() < b.size() : a < b;
              });
    std::string id;
    if (!options.device.empty()) {
        id = device_id(root, options.device);
    } else if (!fingerprint.available_devices.empty()) {
        id = fingerprint.available_devices.front();
    }
    if (!id.empty()) {
        fingerprint.pps = detail::read_pps_device(root, id, options, fingerprint.kernel, processes);
    }
    fingerprint.power = detail::read_power(root);
    fingerprint.chrony = detail::read_chrony(root, options, processes,
                                             fingerprint.pps ? &*fingerprint.pps : nullptr);
    fingerprint.ptp = detail::read_ptp(root, processes);
    fingerprint.pcie = detail::read_pcie(root);
    if (!fingerprint.image) {
        fingerprint.eee = detail::read_eee(root, options, fingerprint.ptp);
    }
    return fingerprint;
}

std::string_view to_string(PpsDriverKind kind) {
    switch (kind) {
        case PpsDriverKind::pps_gpio:
            return "pps-gpio";
        case PpsDriverKind::pps_ldisc:
            return "pps-ldisc";
        case PpsDriverKind::ktimer:
            return "pps-ktimer";
        case PpsDriverKind::ptp:
            return "ptp";
        case PpsDriverKind::unknown:
            break;
    }
    return "unknown";
}

std::string_view to_string(HandlerKind kind) {
    switch (kind) {
        case HandlerKind::split:
            return "split";
        case HandlerKind::single:
            return "single";
        case HandlerKind::no_thread:
            return "no-thread";
        case HandlerKind::unknown:
            break;
    }
    return "unknown";
}

}  // namespace ppsbench::sysinfo
