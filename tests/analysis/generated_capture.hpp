// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Seeded captures for the metamorphic property suite, and the transformations whose effect on
// the figures is known. Every capture is a PPS train t_k = start + k·P + c + jitter_k with the
// kernel's sequence numbers; a transformation returns a new one.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ppsbench/core/pulse.hpp"
#include "ppsbench/core/random.hpp"
#include "ppsbench/stats/analyze.hpp"

namespace ppsbench::test {

struct GeneratedCapture {
    std::vector<core::Pulse> pulses;
    stats::AnalysisOptions options;  // the period, cadence and sequence evidence it was made with
    double jitter_ns = 0;            // σ of the jitter drawn
};

inline GeneratedCapture generate_capture(core::Random& rng, std::size_t min_pulses = 100) {
    GeneratedCapture c;
    const std::int64_t period = rng.chance(0.75) ? 1'000'000'000 : 100'000'000;
    c.options.period_ns = period;
    c.options.compute_stability = rng.chance(0.2);  // costly and checked elsewhere
    c.jitter_ns = std::exp(rng.uniform(std::log(100.0), std::log(10'000.0)));
    const double centre = rng.chance(0.5) ? rng.uniform(-20'000, 20'000)
                                          : rng.uniform(-0.2, 0.2) * static_cast<double>(period);
    const std::size_t n = min_pulses + rng.below(300);
    const std::int64_t start = (1'600'000'000 + static_cast<std::int64_t>(rng.below(300'000'000))) *
                               1'000'000'000 / period * period;
    const std::uint64_t first_sequence = 1 + rng.below(1'000'000);
    c.pulses.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
        const double jitter = c.jitter_ns * rng.normal();
        c.pulses.push_back(
            {first_sequence + k,
             start + static_cast<std::int64_t>(k) * period + std::llround(centre + jitter),
             core::Edge::assert_edge});
    }
    return c;
}

// Every pulse `periods` whole periods later.
inline GeneratedCapture shifted(GeneratedCapture c, std::int64_t periods) {
    for (auto& p : c.pulses) {
        p.timestamp_ns += periods * c.options.period_ns;
    }
    return c;
}

// Every pulse `ns` later (half a period: the clear edge of a 50 % duty cycle).
inline GeneratedCapture delayed(GeneratedCapture c, std::int64_t ns) {
    for (auto& p : c.pulses) {
        p.timestamp_ns += ns;
    }
    return c;
}

// The pulses `keep` says yes to, sequence numbers as they were.
template <typename Keep>
GeneratedCapture kept(GeneratedCapture c, Keep keep) {
    std::vector<core::Pulse> out;
    for (std::size_t i = 0; i < c.pulses.size(); ++i) {
        if (keep(i)) {
            out.push_back(c.pulses[i]);
        }
    }
    c.pulses = std::move(out);
    return c;
}

// From pulse `at` on, the clock reads `step_ns` more.
inline GeneratedCapture stepped(GeneratedCapture c, std::size_t at, std::int64_t step_ns) {
    for (std::size_t i = at; i < c.pulses.size(); ++i) {
        c.pulses[i].timestamp_ns += step_ns;
    }
    return c;
}

// A clock running `ppm` fast: its time since the first pulse is scaled by 1 + ppm·1e-6.
inline GeneratedCapture free_running(GeneratedCapture c, double ppm) {
    const std::int64_t t0 = c.pulses.front().timestamp_ns;
    for (auto& p : c.pulses) {
        p.timestamp_ns += std::llround(static_cast<double>(p.timestamp_ns - t0) * ppm * 1e-6);
    }
    return c;
}

// As an importer numbers samples: by whole periods since the first, not the kernel's counter.
inline GeneratedCapture renumbered(GeneratedCapture c) {
    const std::int64_t t0 = c.pulses.front().timestamp_ns;
    for (auto& p : c.pulses) {
        const double periods =
            static_cast<double>(p.timestamp_ns - t0) / static_cast<double>(c.options.period_ns);
        p.sequence = 1 + static_cast<std::uint64_t>(std::llround(periods));
    }
    c.options.kernel_sequences = false;
    return c;
}

// The offset x folded into (−P/2, P/2], with ties going positive as the phase does.
inline double folded(double x, double period) {
    double r = std::fmod(x, period);
    if (r > period / 2) {
        r -= period;
    } else if (r <= -period / 2) {
        r += period;
    }
    return r;
}

}  // namespace ppsbench::test
