// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ppsbench/core/unique_fd.hpp"

namespace ppsbench::capture {

// The kernel's PM QoS interface for the CPUs' wake-up latency
// (Documentation/power/pm_qos_interface.rst): a limit holds while its file stays open.
inline constexpr std::string_view cpu_dma_latency_device = "/dev/cpu_dma_latency";

// Above this the hold restricts nothing: CPU idle states take microseconds to a few
// milliseconds to leave.
inline constexpr std::uint32_t max_cpu_dma_latency_us = 1'000'000;

// --cpu-dma-latency: a time with its unit ("0us", "10us", "2ms") or a bare "0", in whole
// microseconds (what the kernel holds), from 0 to 1 s. Throws core::UsageError naming `option`
// for a sign, a bare non-zero number, a fraction of a microsecond or more than 1 s.
std::uint32_t parse_cpu_dma_latency(std::string_view text, std::string_view option);

// Asks the kernel to keep every CPU able to wake within `microseconds` (no idle state that takes
// longer to leave) while the object lives, as cyclictest does: the request is the open file, so
// it ends with the object or, however the process ends, with the process. The value is written
// as a binary 32-bit integer: the kernel reads any other length as hexadecimal text, so "10"
// would ask for 16 µs. Throws core::InputError naming the device and the fix (it is root-only;
// a kernel or container without it). `device` is for tests.
class CpuDmaLatencyHold {
  public:
    explicit CpuDmaLatencyHold(std::uint32_t microseconds,
                               const std::string& device = std::string(cpu_dma_latency_device));

  private:
    core::UniqueFd fd_;
};

}  // namespace ppsbench::capture
