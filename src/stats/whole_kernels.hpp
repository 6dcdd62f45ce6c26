// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: ADEV, MDEV and MTIE on a phase grid in whole nanoseconds (stability.hpp's
// PhaseGrid), the report's usual case. Integers make what the double kernels (allan.hpp,
// mtie.cpp) must do in a fixed order exact in any order: second differences, MDEV's inner sums
// and every extreme are whole numbers, computed exactly; only the squares and their sums
// round, in double, in eight fixed lanes. So the kernels can run across the samples in SIMD
// lanes (whole_lanes.hpp), four bytes a sample, and give the same bits on every path.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ppsbench/stats/stability.hpp"

namespace ppsbench::stats::detail {

// The instruction sets the kernels have a path for. `base` is every machine's (SSE2 on
// x86-64, NEON on aarch64); `avx2` is taken where avx2_dispatch() (lanes.hpp) allows it: the
// build has it, the CPU has it, and PPSBENCH_SIMD is not `portable`. Both give the same bits
// (tested).
enum class LanePath { base, avx2 };
LanePath widest_lanes();               // the one the report uses: avx2 where it is allowed
bool lanes_available(LanePath lanes);  // whether `lanes` may run here (avx2_dispatch())

// A whole-nanosecond grid as the kernels read it: the samples, and where they are missing.
struct WholeGrid {
    std::span<const std::int32_t> x;  // PhaseGrid::hole where missing, else |x| < 2^30
    // The runs of missing samples, [begin, end) pairs in ascending order, flattened.
    std::vector<std::uint32_t> hole_runs;
    std::size_t missing = 0;
    std::int64_t range = 0;  // max − min of the samples present (0 when none is)
    bool in_range = true;    // every sample present is within ±(2^30 − 1)
    // Holes so dense that ADEV masks the missing samples in every block rather than walking
    // the stretches between them (the same figures, to the bit, either way).
    bool dense_holes = false;

    std::size_t size() const { return x.size(); }
    std::size_t runs() const { return hole_runs.size() / 2; }
};

// A second difference (ADEV) or an inner sum (MDEV) is a whole number of ns, exact; its square
// and the sums of squares round. Squares of whole numbers are 0 or 1 modulo 4, so once a sum
// passes 2^54 (a lane of a million terms of 10 µs), rounding to even would drop the odd ones'
// last bit every time: a bias, 2e-12 at a million terms. Rounded once to seconds first (as the
// double kernels hold them) the squares' low bits are as good as random, and the rounding of
// their sums unbiased.
inline constexpr double whole_ns_to_s = 1e-9;

// Needs x.size() < 2^32.
WholeGrid scan_whole(std::span<const std::int32_t> x, LanePath lanes);

// One value per factor (NaN where the factor gives none), as overlapping_adev(),
// modified_adev() and mtie() (stability.hpp) define them, in seconds where they have a unit.
std::vector<double> whole_adev(const WholeGrid& g, double tau0,
                               std::span<const std::size_t> factors, LanePath lanes);
std::vector<double> whole_mdev(const WholeGrid& g, double tau0,
                               std::span<const std::size_t> factors, LanePath lanes);
std::vector<double> whole_mtie(const WholeGrid& g, std::span<const std::size_t> factors,
                               LanePath lanes);

// compute_stability() of the grid whose slots are `ns` (PhaseGrid::ns, with its holes) and
// reference `reference_ns`, wherever the slots are held (analyze() spreads the phase buffer
// onto the grid in place: PhaseBuffer::spread_onto_grid()).
Stability whole_grid_stability(std::span<const std::int32_t> ns, std::int64_t reference_ns,
                               double tau0_s, StabilityThreads threads);

}  // namespace ppsbench::stats::detail
