// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ppsbench::bench {

// A phase series for the Allan-family benchmarks, in seconds: a random walk plus white phase
// noise from a fixed LCG, so every bench and every run times the same input.
inline std::vector<double> phase_seconds(std::size_t n) {
    std::vector<double> x(n);
    std::uint64_t state = 7;
    double walk = 0;
    for (std::size_t i = 0; i < n; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const double u = static_cast<double>(state >> 11) * 0x1.0p-53 - 0.5;
        walk += u * 1e-10;
        x[i] = u * 2e-9 + walk;
    }
    return x;
}

}  // namespace ppsbench::bench
