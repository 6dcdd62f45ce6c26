// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <optional>

#include "ppsbench/capture/cpu_dma_latency.hpp"

namespace ppsbench::capture {

// What the user asked for so the measuring process is not itself the noise.
struct RealtimeOptions {
    std::optional<int> rt_priority;  // SCHED_FIFO priority 1..99
    std::optional<int> cpu;          // pin to this CPU
    bool lock_memory = false;        // mlockall: no page faults in the capture path
    // Held in /dev/cpu_dma_latency: no CPU idle state slower to leave than this (µs).
    std::optional<std::uint32_t> cpu_dma_latency_us;
};

// Applies the options for the lifetime of the object and restores the previous scheduling
// policy, affinity and memory locking and releases the CPU latency hold afterwards (as
// cyclictest restores what it changes). Throws core::InputError with the fix (root or
// CAP_SYS_NICE / CAP_IPC_LOCK, a valid CPU, access to /dev/cpu_dma_latency).
class RealtimeGuard {
  public:
    explicit RealtimeGuard(const RealtimeOptions& options);
    ~RealtimeGuard();
    RealtimeGuard(const RealtimeGuard&) = delete;
    RealtimeGuard& operator=(const RealtimeGuard&) = delete;

  private:
    void restore() noexcept;

    bool restore_policy_ = false;
    bool restore_affinity_ = false;
    bool unlock_memory_ = false;
    int saved_policy_ = 0;
    int saved_priority_ = 0;
    unsigned char saved_affinity_[128]{};  // a cpu_set_t, kept opaque to spare the header
    std::optional<CpuDmaLatencyHold> latency_hold_;
};

}  // namespace ppsbench::capture
