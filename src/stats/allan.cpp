// SPDX-License-Identifier: GPL-2.0-or-later
#include "allan.hpp"

#include <algorithm>
#include <cmath>

#include "ppsbench/stats/stability.hpp"

namespace ppsbench::stats {

namespace detail {

Prepared prepare(std::span<const double> phase) {
    Prepared p;
    p.raw = phase;
    const auto first =
        std::find_if(phase.begin(), phase.end(), [](double v) { return !std::isnan(v); });
    p.reference = first == phase.end() ? 0.0 : *first;
    p.any_missing = first != phase.begin() ||
                    std::any_of(first, phase.end(), [](double v) { return std::isnan(v); });
    if (p.any_missing) {
        const std::size_t most = phase.size() / 16;  // denser holes leave no long stretches
        for (std::size_t i = 0; i < phase.size(); ++i) {
            if (std::isnan(phase[i])) {
                if (p.holes.size() == most) {
                    p.holes = {};
                    break;
                }
                p.holes.push_back(i);
            }
        }
    }
    return p;
}

void mdev_to_tdev(std::span<double> mdev, std::span<const std::size_t> factors, double tau0) {
    for (std::size_t i = 0; i < mdev.size(); ++i) {
        mdev[i] *= static_cast<double>(factors[i]) * tau0 / std::sqrt(3.0);
    }
}

}  // namespace detail

std::vector<double> overlapping_adev(std::span<const double> phase_s, double tau0_s,
                                     std::span<const std::size_t> factors) {
    return detail::adev_all(detail::prepare(phase_s), tau0_s, factors);
}

std::vector<double> modified_adev(std::span<const double> phase_s, double tau0_s,
                                  std::span<const std::size_t> factors) {
    return detail::mdev_all(detail::prepare(phase_s), tau0_s, factors);
}

std::vector<double> time_deviation(std::span<const double> phase_s, double tau0_s,
                                   std::span<const std::size_t> factors) {
    std::vector<double> out = modified_adev(phase_s, tau0_s, factors);
    detail::mdev_to_tdev(out, factors, tau0_s);
    return out;
}

}  // namespace ppsbench::stats
