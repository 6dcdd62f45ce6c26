// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Random captures with everything that breaks a pulse train's rhythm, for the property tests of
// the timeline stages: missed pulses (with and without the kernel's count of them), duplicate
// lines, swapped lines, glitches, sequence skips, clock steps forward and back (with contiguous
// numbers, so that they are time jumps), restarted and wrapping counters, made-up or missing
// sequence numbers, a sampled cadence and a second edge. Each kind has its own rate, drawn per
// capture, so that many captures are clean and some have everything.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "ppsbench/core/pulse.hpp"

namespace ppsbench::test {

enum class Numbers { kernel, made_up, zeros, near_wrap };

struct CaptureShape {
    std::int64_t period_ns = 1'000'000'000;
    std::size_t slots = 1000;  // period slots to fill (fewer pulses when some are missed)
    std::int64_t start_ns = 1'700'000'000'000'000'000;
    double jitter_ns = 2000;
    double missed = 0, duplicate = 0, swap = 0, glitch = 0, skip = 0, step = 0, restart = 0;
    std::size_t sampled_every = 1;  // keep one slot in this many (a sampled log)
    Numbers numbers = Numbers::kernel;
    bool both_edges = false;
};

inline CaptureShape random_shape(std::mt19937_64& rng) {
    CaptureShape s;
    const auto pick = [&](auto... values) {
        const std::int64_t all[] = {values...};
        return all[rng() % sizeof...(values)];
    };
    // Up to 2^48 ns: a phase past what the SSE2 conversion takes.
    s.period_ns = pick(1'000'000'000, 1'000'000'000, 1'000'000, 999'999'937, 20'000'000, 7,
                       std::int64_t{1} << 48);
    s.slots = static_cast<std::size_t>(pick(2, 5, 40, 300, 1000, 2000, 5000));
    s.start_ns = pick(1'700'000'000'000'000'000, 12'345'678'901'234, 0, 4'611'686'018'000'000'000);
    s.jitter_ns =
        static_cast<double>(s.period_ns) * std::pow(10.0, -2.0 - static_cast<double>(rng() % 5));
    const auto rate = [&]() {
        return rng() % 2 == 0 ? 0.0 : std::uniform_real_distribution<double>(0, 0.04)(rng);
    };
    s.missed = rate();
    s.duplicate = rate();
    s.swap = rate();
    s.glitch = rate();
    s.skip = rate();
    s.step = rate() / 4;
    s.restart = rate() / 8;
    s.sampled_every = rng() % 8 == 0 ? static_cast<std::size_t>(2 + rng() % 16) : 1;
    s.numbers = static_cast<Numbers>(rng() % 6 < 3 ? 0 : rng() % 4);
    s.both_edges = rng() % 6 == 0;
    return s;
}

inline std::vector<core::Pulse> random_capture(std::mt19937_64& rng, const CaptureShape& s) {
    std::uniform_real_distribution<double> unit(0, 1);
    std::normal_distribution<double> jitter(0, s.jitter_ns);
    const auto p = static_cast<double>(s.period_ns);
    std::vector<core::Pulse> pulses;
    std::uint64_t sequence = s.numbers == Numbers::near_wrap ? ~std::uint64_t{0} - 50 : 7;
    std::int64_t shift = 0;  // the clock steps so far
    const auto number = [&]() {
        switch (s.numbers) {
            case Numbers::made_up:
                return static_cast<std::uint64_t>(pulses.size() + 1);
            case Numbers::zeros:
                return std::uint64_t{0};
            default:
                return sequence;
        }
    };
    const auto emit = [&](std::int64_t t, core::Edge edge) {
        pulses.push_back({number(), t, edge});
    };
    for (std::size_t k = 0; k < s.slots; ++k) {
        sequence += 1;
        if (k % s.sampled_every != 0 || (k > 0 && unit(rng) < s.missed)) {
            continue;
        }
        if (unit(rng) < s.step) {
            // A time jump: a quarter period up to many periods, either way, or exactly half.
            const double size = rng() % 4 == 0 ? 0.5 : std::pow(10.0, unit(rng) * 4.0 - 0.6);
            shift += static_cast<std::int64_t>((rng() % 2 == 0 ? 1 : -1) * size * p);
        }
        if (unit(rng) < s.skip) {
            sequence += 1 + rng() % 3;  // events the reader never fetched
        }
        if (unit(rng) < s.restart) {
            sequence = rng() % 100;
        }
        const auto t = s.start_ns + static_cast<std::int64_t>(k) * s.period_ns + shift +
                       static_cast<std::int64_t>(std::llround(jitter(rng)));
        emit(t, core::Edge::assert_edge);
        if (unit(rng) < s.duplicate) {
            pulses.push_back(pulses.back());
        }
        if (unit(rng) < s.glitch) {
            sequence += 1;
            emit(t + static_cast<std::int64_t>(unit(rng) * 0.4 * p), core::Edge::assert_edge);
        }
        if (s.both_edges) {
            emit(t + s.period_ns / 2, core::Edge::clear_edge);
        }
    }
    for (std::size_t i = 1; i < pulses.size(); ++i) {
        if (unit(rng) < s.swap) {
            std::swap(pulses[i - 1], pulses[i]);
        }
    }
    return pulses;
}

}  // namespace ppsbench::test
