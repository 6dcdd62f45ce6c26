// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/capture/cpu_dma_latency.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <initializer_list>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {

std::uint32_t parse_cpu_dma_latency(std::string_view text, std::string_view option) {
    // 0 is the usual request (stay out of every idle state) and needs no unit: zero is zero in
    // any of them. parse_duration refuses it, as a zero duration is a typo everywhere else.
    for (const std::string_view zero : {"0", "0ns", "0us", "0µs", "0ms", "0s"}) {
        if (text == zero) {
            return 0;
        }
    }
    if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
        throw core::UsageError(fmt::format(
            "{} {}: give a wake-up latency from 0us to 1s without a sign, e.g. 0us or 10us", option,
            text));
    }
    const auto ns = core::parse_duration(text, option).count();
    if (ns % 1000 != 0) {
        throw core::UsageError(fmt::format("{} {}: the kernel holds whole microseconds; use {}us",
                                           option, text, ns / 1000));
    }
    const auto us = ns / 1000;
    if (us > max_cpu_dma_latency_us) {
        throw core::UsageError(fmt::format(
            "{} {}: use 0us to 1s (idle states take microseconds to a few milliseconds to leave; "
            "a longer limit holds nothing back)",
            option, text));
    }
    return static_cast<std::uint32_t>(us);
}

namespace {

std::string open_failure(const std::string& device, std::uint32_t microseconds, int err) {
    const auto what = fmt::format("--cpu-dma-latency {}us: cannot open {} ({})", microseconds,
                                  device, core::errno_message(err));
    if (err == EACCES || err == EPERM) {
        return what +
               "; it is root-only: run as root, or give the device to the ppsbench group (a "
               "udev rule) and the service DeviceAllow=/dev/cpu_dma_latency rw (docs/install.md)";
    }
    if (err == ENOENT || err == ENODEV || err == ENXIO) {
        return what +
               "; this kernel (or container) has no CPU latency QoS device: drop the option, or "
               "pass /dev/cpu_dma_latency into the container";
    }
    return what + "; drop the option to run without the hold";
}

}  // namespace

CpuDmaLatencyHold::CpuDmaLatencyHold(std::uint32_t microseconds, const std::string& device)
    : fd_(::open(device.c_str(), O_WRONLY | O_CLOEXEC)) {
    if (!fd_.valid()) {
        throw core::InputError(open_failure(device, microseconds, errno));
    }
    const auto value = static_cast<std::int32_t>(microseconds);
    const auto written = ::write(fd_.get(), &value, sizeof value);
    if (written != static_cast<ssize_t>(sizeof value)) {
        const int err = written < 0 ? errno : EIO;
        throw core::InputError(fmt::format("--cpu-dma-latency {}us: cannot write to {} ({})",
                                           microseconds, device, core::errno_message(err)));
    }
}

}  // namespace ppsbench::capture
