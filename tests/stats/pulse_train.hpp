// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Synthetic pulse trains for the analysis tests: t_k = start + k·P + offset_k, in integer ns.

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "ppsbench/core/pulse.hpp"

namespace ppsbench::test {

inline std::vector<core::Pulse> pulse_train(std::size_t n, std::int64_t start_ns,
                                            std::int64_t period_ns,
                                            const std::function<double(std::size_t)>& offset_ns) {
    std::vector<core::Pulse> pulses;
    pulses.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
        const auto offset = static_cast<std::int64_t>(std::llround(offset_ns(k)));
        pulses.push_back(
            {.sequence = k + 1,
             .timestamp_ns = start_ns + static_cast<std::int64_t>(k) * period_ns + offset,
             .edge = core::Edge::assert_edge});
    }
    return pulses;
}

inline std::vector<std::int64_t> timestamps(const std::vector<core::Pulse>& pulses) {
    std::vector<std::int64_t> t;
    for (const auto& p : pulses) {
        t.push_back(p.timestamp_ns);
    }
    return t;
}

}  // namespace ppsbench::test
