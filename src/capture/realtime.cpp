// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/capture/realtime.hpp"

#include <fmt/format.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {

static_assert(sizeof(cpu_set_t) <= 128, "saved_affinity_ too small for cpu_set_t");

RealtimeGuard::RealtimeGuard(const RealtimeOptions& options) {
    try {
        if (options.cpu) {
            const long cpus = ::sysconf(_SC_NPROCESSORS_CONF);
            if (*options.cpu < 0 || *options.cpu >= cpus || *options.cpu >= CPU_SETSIZE) {
                throw core::UsageError(fmt::format(
                    "--cpu {}: no such CPU; this machine has CPUs 0-{}", *options.cpu, cpus - 1));
            }
            cpu_set_t old{};
            sched_getaffinity(0, sizeof old, &old);
            std::memcpy(saved_affinity_, &old, sizeof old);
            cpu_set_t wanted{};
            CPU_ZERO(&wanted);
            CPU_SET(static_cast<std::size_t>(*options.cpu), &wanted);
            if (sched_setaffinity(0, sizeof wanted, &wanted) != 0) {
                throw core::InputError(fmt::format(
                    "--cpu {}: cannot pin the capture to it ({}); pick a CPU in this process's "
                    "allowed set (taskset -p $$) or an online one",
                    *options.cpu, core::errno_message(errno)));
            }
            restore_affinity_ = true;
        }
        if (options.rt_priority) {
            const int lo = sched_get_priority_min(SCHED_FIFO);
            const int hi = sched_get_priority_max(SCHED_FIFO);
            if (*options.rt_priority < lo || *options.rt_priority > hi) {
                throw core::UsageError(fmt::format("--rt-priority {}: must be {}..{} (SCHED_FIFO)",
                                                   *options.rt_priority, lo, hi));
            }
            saved_policy_ = sched_getscheduler(0);
            sched_param old{};
            sched_getparam(0, &old);
            saved_priority_ = old.sched_priority;
            sched_param param{};
            param.sched_priority = *options.rt_priority;
            if (sched_setscheduler(0, SCHED_FIFO, &param) != 0) {
                throw core::InputError(fmt::format(
                    "--rt-priority {}: cannot switch to SCHED_FIFO ({}); run as root or grant "
                    "CAP_SYS_NICE (setcap cap_sys_nice+ep ppsbench), or raise RLIMIT_RTPRIO",
                    *options.rt_priority, core::errno_message(errno)));
            }
            restore_policy_ = true;
        }
        if (options.lock_memory) {
            if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0) {
                throw core::InputError(fmt::format(
                    "--mlock: cannot lock memory ({}); run as root, grant CAP_IPC_LOCK, or raise "
                    "'ulimit -l'",
                    core::errno_message(errno)));
            }
            unlock_memory_ = true;
        }
        if (options.cpu_dma_latency_us) {
            latency_hold_.emplace(*options.cpu_dma_latency_us);
        }
    } catch (...) {
        restore();  // a half-applied setup is undone before the error reaches the user
        throw;
    }
}

RealtimeGuard::~RealtimeGuard() {
    restore();
}

void RealtimeGuard::restore() noexcept {
    latency_hold_.reset();
    if (unlock_memory_) {
        munlockall();
        unlock_memory_ = false;
    }
    if (restore_policy_) {
        sched_param param{};
        param.sched_priority = saved_priority_;
        sched_setscheduler(0, saved_policy_, &param);
        restore_policy_ = false;
    }
    if (restore_affinity_) {
        cpu_set_t old{};
        std::memcpy(&old, saved_affinity_, sizeof old);
        sched_setaffinity(0, sizeof old, &old);
        restore_affinity_ = false;
    }
}

}  // namespace ppsbench::capture
