// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The pulse width of a capture of both edges: how long after each assert edge its clear edge
// comes (docs/metrics.md, "Pulse width"). Which edge is on the second is the receiver's choice;
// knowing the width tells a refclock on the wrong edge (late by this much) from a right one.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ppsbench/core/pulse.hpp"

namespace ppsbench::analysis {

struct PulseWidth {
    std::size_t pulses = 0;  // assert edges paired with their clear edge
    double mean_ns = 0;
    double stddev_ns = 0;  // n − 1; 0 for a single pulse
    double min_ns = 0;
    double max_ns = 0;
};

// Pairs each assert edge with the first clear edge after it, when that clear edge comes before
// the next assert edge and less than one period after it (a missed clear edge pairs nothing).
// Nothing when no pair is found. Pulses in time order, as a capture holds them.
std::optional<PulseWidth> pulse_width(const std::vector<core::Pulse>& pulses,
                                      std::int64_t period_ns);

}  // namespace ppsbench::analysis
