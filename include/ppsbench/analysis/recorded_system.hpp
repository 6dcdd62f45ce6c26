// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ppsbench/store/run_record.hpp"

namespace ppsbench::analysis {

// What a device run's recorded kernel fingerprint (RunMeta::system, written by `ppsbench run`
// with the doctor's reader) says about the path a PPS timestamp takes, in words for a page.
// The capture records the facts, not the doctor's verdicts: the page shows these and points
// to `ppsbench doctor` for the verdicts and fixes.
struct RecordedSystem {
    std::optional<std::string> kernel_release;  // "6.1.0-27-rt-amd64"
    std::optional<bool> preempt_rt;
    // "PPS handler: split (pps_gpio_irq_hardirq, pps_gpio_irq_thread)", "IRQ 24 thread
    // irq/24-pps-gpio SCHED_FIFO priority 50", "busy IRQ neighbour: 4 (ttyS0), 1187/s",
    // "forced IRQ threading (threadirqs or PREEMPT_RT): yes", "clocksource: tsc".
    std::vector<std::string> findings;
};

// Absent when the run recorded no fingerprint (a sim, an import, a saved summary).
std::optional<RecordedSystem> recorded_system(const store::RunMeta& meta);

}  // namespace ppsbench::analysis
