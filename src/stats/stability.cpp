// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/stability.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <future>
#include <limits>
#include <utility>

#include "allan.hpp"
#include "whole_kernels.hpp"

// The measures themselves: allan.cpp (ADEV, MDEV, TDEV; kernels in adev.cpp and mdev.cpp) and
// mtie.cpp on seconds; whole_*.cpp on whole nanoseconds. Here: the four at the same taus, for
// the report.

namespace ppsbench::stats {

namespace {

Stability at_taus(double tau0_s, std::span<const std::size_t> factors) {
    Stability s;
    s.tau0_s = tau0_s;
    s.factors.assign(factors.begin(), factors.end());
    for (std::size_t m : factors) {
        s.tau_s.push_back(static_cast<double>(m) * tau0_s);
    }
    return s;
}

// Two cores, three measures that only read the phase: MDEV and `split` of ADEV's taus on a second
// thread, MTIE and the rest of ADEV on this one (one thread: all here, in the same order). Each
// tau is computed exactly as it would be alone, in whichever group.
template <typename Adev, typename Mdev, typename Mtie>
void four_measures(Stability& s, std::span<const std::size_t> factors, std::size_t split,
                   StabilityThreads threads, Adev adev, Mdev mdev, Mtie mtie) {
    const std::size_t here = std::min(factors.size(), split);
    if (threads == StabilityThreads::one) {
        s.adev = adev(factors);
        s.mtie_s = mtie(factors);
        s.mdev = mdev(factors);
    } else {
        auto second = std::async(std::launch::async, [&] {
            return std::pair(mdev(factors), adev(factors.subspan(here)));
        });
        s.adev = adev(factors.first(here));
        s.mtie_s = mtie(factors);
        auto [m, adev_rest] = second.get();
        s.mdev = std::move(m);
        s.adev.insert(s.adev.end(), adev_rest.begin(), adev_rest.end());
    }
    s.tdev_s = s.mdev;
    detail::mdev_to_tdev(s.tdev_s, factors, s.tau0_s);
}

// A grid the whole-nanosecond kernels do not take (values past ±(2^30 − 1), 2^32 samples or
// more; PhaseGrid's builder makes none), in seconds.
std::vector<double> grid_seconds(std::span<const std::int32_t> ns, std::int64_t reference_ns) {
    std::vector<double> seconds(ns.size());
    for (std::size_t k = 0; k < seconds.size(); ++k) {
        seconds[k] = ns[k] == PhaseGrid::hole ? std::numeric_limits<double>::quiet_NaN()
                                              : static_cast<double>(reference_ns + ns[k]) * 1e-9;
    }
    return seconds;
}

}  // namespace

Stability compute_stability(std::span<const double> phase_s, double tau0_s,
                            std::span<const std::size_t> factors, StabilityThreads threads) {
    Stability s = at_taus(tau0_s, factors);
    // MTIE costs about as much as MDEV, ADEV a little under either.
    const detail::Prepared p = detail::prepare(phase_s);
    four_measures(
        s, factors, (factors.size() / 2 + 3) / 4 * 4, threads,
        [&](std::span<const std::size_t> f) { return detail::adev_all(p, tau0_s, f); },
        [&](std::span<const std::size_t> f) { return detail::mdev_all(p, tau0_s, f); },
        [&](std::span<const std::size_t> f) { return mtie(phase_s, f); });
    s.missing_samples = static_cast<std::size_t>(
        std::count_if(phase_s.begin(), phase_s.end(), [](double v) { return std::isnan(v); }));
    return s;
}

Stability compute_stability(std::span<const double> phase_s, double tau0_s,
                            StabilityThreads threads) {
    const auto factors = octave_factors(phase_s.size());
    return compute_stability(phase_s, tau0_s, factors, threads);
}

Stability compute_stability(const PhaseGrid& grid, double tau0_s, StabilityThreads threads) {
    if (!grid.whole()) {
        return compute_stability(grid.seconds, tau0_s, threads);
    }
    return detail::whole_grid_stability(grid.ns, grid.reference_ns, tau0_s, threads);
}

Stability detail::whole_grid_stability(std::span<const std::int32_t> ns, std::int64_t reference_ns,
                                       double tau0_s, StabilityThreads threads) {
    const auto factors = octave_factors(ns.size());
    const detail::LanePath lanes = detail::widest_lanes();
    // 2^32 slots or more (in 64 bits: size_t is 32 bits on 32-bit ARM, where a shift by 32 is
    // undefined and no grid is that long).
    if ((std::uint64_t{ns.size()} >> 32) != 0) {
        return compute_stability(grid_seconds(ns, reference_ns), tau0_s, threads);
    }
    const detail::WholeGrid g = detail::scan_whole(ns, lanes);
    if (!g.in_range) {
        return compute_stability(grid_seconds(ns, reference_ns), tau0_s, threads);
    }
    Stability s = at_taus(tau0_s, factors);
    // Half of ADEV's taus here, in whole octave groups of four (whole_adev.cpp).
    four_measures(
        s, factors, factors.size() / 2 / 4 * 4, threads,
        [&](std::span<const std::size_t> f) { return detail::whole_adev(g, tau0_s, f, lanes); },
        [&](std::span<const std::size_t> f) { return detail::whole_mdev(g, tau0_s, f, lanes); },
        [&](std::span<const std::size_t> f) { return detail::whole_mtie(g, f, lanes); });
    s.missing_samples = g.missing;
    return s;
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
