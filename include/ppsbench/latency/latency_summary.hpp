// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ppsbench/latency/distribution.hpp"

namespace ppsbench::latency {

// The figures of one `ppsbench latency` run (analysis::summarize_latency reads them from its
// capture file).
struct LatencySummary {
    std::string label;
    std::string file;
    std::string sense;  // the sense source spec
    std::string drive;  // CHIP:LINE
    std::string clock;  // the sense clock all three times were read on
    std::uint64_t edges_driven = 0;
    std::uint64_t unseen_edges = 0;
    std::uint64_t stray_events = 0;
    Distribution drive_to_kernel;  // (a) timestamp − drive
    Distribution kernel_to_wake;   // (b) wake − timestamp
    std::optional<double> cpu_idle_fraction;
};

}  // namespace ppsbench::latency
