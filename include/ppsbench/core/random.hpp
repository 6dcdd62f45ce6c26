// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>

namespace ppsbench::core {

// xoshiro256** (Blackman & Vigna), seeded through splitmix64 as its authors recommend, with our
// own distributions: std::normal_distribution and friends differ between standard libraries,
// and a seeded simulation or bootstrap must give the same numbers everywhere.
class Random {
  public:
    explicit Random(std::uint64_t seed) {
        for (auto& word : state_) {
            seed += 0x9e3779b97f4a7c15ULL;
            std::uint64_t z = seed;
            z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
            word = z ^ (z >> 31U);
        }
    }

    std::uint64_t next() {
        const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const std::uint64_t t = state_[1] << 17U;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }

    // Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11U) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

    // Standard normal by Box–Muller; the second value is discarded to keep the stream simple.
    double normal() {
        double u1 = uniform();
        while (u1 <= 0.0) {
            u1 = uniform();
        }
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }

    bool chance(double probability) { return probability > 0.0 && uniform() < probability; }

    // Uniform in [0, bound) without modulo bias (Lemire, "Fast random integer generation in an
    // interval", 2019), with the 64×64→128 multiply spelled out in 32-bit halves.
    std::uint64_t below(std::uint64_t bound) {
        std::uint64_t low = 0;
        std::uint64_t high = multiply(next(), bound, low);
        if (low < bound) {
            const std::uint64_t threshold = (0 - bound) % bound;
            while (low < threshold) {
                high = multiply(next(), bound, low);
            }
        }
        return high;
    }

  private:
    static std::uint64_t rotl(std::uint64_t x, int k) {
        return (x << static_cast<unsigned>(k)) | (x >> static_cast<unsigned>(64 - k));
    }

    static std::uint64_t multiply(std::uint64_t a, std::uint64_t b, std::uint64_t& low) {
        const std::uint64_t a_lo = a & 0xffffffffULL;
        const std::uint64_t a_hi = a >> 32U;
        const std::uint64_t b_lo = b & 0xffffffffULL;
        const std::uint64_t b_hi = b >> 32U;
        const std::uint64_t lo_lo = a_lo * b_lo;
        const std::uint64_t hi_lo = a_hi * b_lo;
        const std::uint64_t lo_hi = a_lo * b_hi;
        const std::uint64_t hi_hi = a_hi * b_hi;
        const std::uint64_t cross = (lo_lo >> 32U) + (hi_lo & 0xffffffffULL) + lo_hi;
        low = (cross << 32U) | (lo_lo & 0xffffffffULL);
        return hi_hi + (hi_lo >> 32U) + (cross >> 32U);
    }

    std::uint64_t state_[4]{};
};

}  // namespace ppsbench::core
