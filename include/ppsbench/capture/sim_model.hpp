// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ppsbench::capture {

// How a simulated kernel delays the PPS timestamp. Calibrated against the write-up that
// motivates ppsbench (Raspberry Pi, GPS PPS on pps-gpio, ~1 h of pulses): docs/sim-models.md.
enum class SimLatencyModel {
    hardirq,  // stock kernel: timestamp taken in hard-IRQ context (σ ≈ 2134 ns, p-p ≈ 11 µs)
    threaded,  // PREEMPT_RT, force-threaded handler: + scheduler wake-up (σ ≈ 6947 ns, ≈ 38 µs)
    nothread,  // PREEMPT_RT with IRQF_NO_THREAD: hard-IRQ again, RT overhead (σ ≈ 2568 ns)
    // Edges exactly on the period (the true edge times), recorded as a reference: in a
    // two-source run the other path's bias is measured against it (docs/sim-models.md).
    reference,
};

struct SimModel {
    std::string name;  // "hardirq", "threaded", "nothread", "reference"
    SimLatencyModel latency = SimLatencyModel::hardirq;
    double missed_rate = 0.0;   // probability the reader misses a pulse (sequence and time gap)
    double outlier_rate = 0.0;  // probability of a gross outlier on a pulse
    std::int64_t outlier_ns = 100'000;  // size of an outlier (sign random)
    std::optional<double> step_at_s;    // a clock step this far into the run...
    std::int64_t step_ns = 0;           // ...of this size
    double frequency_ppm = 0.0;         // an undisciplined clock's frequency error
    // A constant lateness added to every timestamp (late=D): what a kernel path's fixed delay
    // looks like, invisible in the jitter, revealed as bias by a reference path.
    std::int64_t late_ns = 0;
};

// The names `sim:` accepts, for help and error messages.
std::vector<std::string_view> sim_model_names();

// Parses "threaded", "hardirq,missed=0.001,outliers=0.0005", "hardirq,step=1ms,step-at=600",
// "hardirq,freq=2.5", "threaded,late=12us", "reference". Throws core::UsageError naming the bad
// part and the accepted ones.
SimModel parse_sim_model(std::string_view spec);

}  // namespace ppsbench::capture
