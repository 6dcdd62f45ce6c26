// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/stability.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <utility>

#include "allan.hpp"

// The measures themselves: allan.cpp (ADEV, MDEV, TDEV; kernels in adev.cpp and mdev.cpp) and
// mtie.cpp. Here: the four at the same taus, for the report.

namespace ppsbench::stats {

Stability compute_stability(std::span<const double> phase_s, double tau0_s,
                            std::span<const std::size_t> factors) {
    Stability s;
    s.tau0_s = tau0_s;
    s.factors.assign(factors.begin(), factors.end());
    for (std::size_t m : factors) {
        s.tau_s.push_back(static_cast<double>(m) * tau0_s);
    }
    // Two cores, three measures that only read the phase: MDEV on a second thread, MTIE here,
    // and ADEV's taus split between them (MTIE costs about as much as MDEV, ADEV a little
    // under either). Each tau is computed exactly as it would be alone, in whichever group.
    const detail::Prepared p = detail::prepare(phase_s);
    const std::size_t adev_here = std::min(factors.size(), (factors.size() / 2 + 3) / 4 * 4);
    auto second = std::async(std::launch::async, [&p, tau0_s, factors, adev_here] {
        return std::pair(detail::mdev_all(p, tau0_s, factors),
                         detail::adev_all(p, tau0_s, factors.subspan(adev_here)));
    });
    s.adev = detail::adev_all(p, tau0_s, factors.first(adev_here));
    s.mtie_s = mtie(phase_s, factors);
    auto [mdev, adev_rest] = second.get();
    s.mdev = std::move(mdev);
    s.adev.insert(s.adev.end(), adev_rest.begin(), adev_rest.end());
    s.tdev_s = s.mdev;
    detail::mdev_to_tdev(s.tdev_s, factors, tau0_s);
    s.missing_samples = static_cast<std::size_t>(
        std::count_if(phase_s.begin(), phase_s.end(), [](double v) { return std::isnan(v); }));
    return s;
}

Stability compute_stability(std::span<const double> phase_s, double tau0_s) {
    const auto factors = octave_factors(phase_s.size());
    return compute_stability(phase_s, tau0_s, factors);
}

std::vector<std::size_t> octave_factors(std::size_t samples) {
    std::vector<std::size_t> factors;
    if (samples < 5) {
        return factors;
    }
    for (std::size_t m = 1; m <= (samples - 1) / 4; m *= 2) {
        factors.push_back(m);
    }
    return factors;
}

}  // namespace ppsbench::stats
