// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the Allan family's kernels (ADEV, MDEV), shared by the public per-measure
// functions and compute_stability(), which splits the taus between two threads and prepares
// the phase once for all of them.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

namespace ppsbench::stats::detail {

// The phase relative to its first present sample, with missing samples NaN: differences are
// unchanged and the running sums below then carry small numbers, so double is exact enough.
// Read through at() rather than copied: at 10 M samples a copy is 80 MB, and the subtraction
// is free next to the memory traffic.
struct Prepared {
    std::span<const double> raw;
    double reference = 0;
    bool any_missing = false;
    // Where the missing samples are, ascending, when they are few (else empty): MDEV then runs
    // the stretches that touch none of them without a NaN test per read.
    std::vector<std::size_t> holes;

    std::size_t size() const { return raw.size(); }
    double operator[](std::size_t i) const { return raw[i] - reference; }
};

Prepared prepare(std::span<const double> phase);

// The Allan family of up to four taus in one pass. Each tau's running sums are serial chains,
// so one tau at a time waits on add latency, and its three or four sample streams are read
// from memory separately; taken together (octave taus share streams: x[j + 2m] for m is
// x[j + m'] for m' = 2m) the pipeline fills and memory is read about half as often. Every tau
// still sees exactly the operations, in the order, of computing it alone.
inline constexpr std::size_t max_group = 4;

// Per tau and read offset o·m (o = 0 … reads − 1): the next hole at or past j + o·m, walked
// forward; for the hole-free stretches of MDEV (reads x[j … j + 3m]) and ADEV (x[j … j + 2m]).
struct HoleCursors {
    std::size_t next[max_group][4] = {};

    // Where the stretch of hole-free spans from j ends (at most `common`).
    template <std::size_t G, std::size_t reads>
    std::size_t stretch_end(const Prepared& x, std::span<const std::size_t> ms, std::size_t j,
                            std::size_t common) {
        static_assert(reads <= 4);
        std::size_t stop = common;
        for (std::size_t q = 0; q < G; ++q) {
            for (std::size_t o = 0; o < reads; ++o) {
                const std::size_t offset = o * ms[q];
                std::size_t& c = next[q][o];
                while (c < x.holes.size() && x.holes[c] < j + offset) {
                    ++c;
                }
                if (c < x.holes.size()) {
                    stop = std::min(stop, x.holes[c] - offset);
                }
            }
        }
        return stop;
    }
};

// G is a compile-time group size so that each tau's accumulators live in registers.

// One measure at every factor, in groups of up to four valid taus; `valid(m)` says whether m
// gives a value at all (else NaN, as the single-tau functions return).
template <typename Group, typename Valid>
std::vector<double> grouped(const Prepared& p, double tau0, std::span<const std::size_t> factors,
                            Group group, Valid valid) {
    std::vector<double> out(factors.size(), std::numeric_limits<double>::quiet_NaN());
    std::vector<std::size_t> ms;
    std::vector<std::size_t> where;
    auto flush = [&] {
        double values[max_group];
        switch (ms.size()) {
            case 1:
                group(std::integral_constant<std::size_t, 1>{}, p, tau0, ms, values);
                break;
            case 2:
                group(std::integral_constant<std::size_t, 2>{}, p, tau0, ms, values);
                break;
            case 3:
                group(std::integral_constant<std::size_t, 3>{}, p, tau0, ms, values);
                break;
            default:
                group(std::integral_constant<std::size_t, 4>{}, p, tau0, ms, values);
                break;
        }
        for (std::size_t q = 0; q < ms.size(); ++q) {
            out[where[q]] = values[q];
        }
        ms.clear();
        where.clear();
    };
    for (std::size_t i = 0; i < factors.size(); ++i) {
        if (!valid(factors[i])) {
            continue;
        }
        ms.push_back(factors[i]);
        where.push_back(i);
        if (ms.size() == max_group) {
            flush();
        }
    }
    if (!ms.empty()) {
        flush();
    }
    return out;
}

// One value per factor (NaN where the factor gives none), in the factors' order.
std::vector<double> adev_all(const Prepared& p, double tau0, std::span<const std::size_t> factors);
std::vector<double> mdev_all(const Prepared& p, double tau0, std::span<const std::size_t> factors);

// TDEV(τ) = τ/√3 · MDEV(τ), in place.
void mdev_to_tdev(std::span<double> mdev, std::span<const std::size_t> factors, double tau0);

}  // namespace ppsbench::stats::detail
