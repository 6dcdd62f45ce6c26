// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace ppsbench::stats {

// Frequency-stability measures of a phase (time error) series x_i in seconds, sampled every
// tau0 seconds, after NIST SP 1065 (W. J. Riley, "Handbook of Frequency Stability Analysis",
// 2008). An averaging factor m means τ = m·tau0.
//
// Gaps: a missing sample is NaN. ADEV and MDEV skip every term that needs a missing sample and
// normalise by the number of terms actually used (so a few missed pulses cost a few terms, not
// the run); MTIE takes the extremes of the samples present in each window. Nothing is
// interpolated: a made-up sample would itself be phase noise.

// Overlapping Allan deviation:
//   σ²_y(τ) = Σ_{i} (x_{i+2m} − 2x_{i+m} + x_i)² / (2 τ² (N − 2m))
std::vector<double> overlapping_adev(std::span<const double> phase_s, double tau0_s,
                                     std::span<const std::size_t> factors);

// Modified Allan deviation:
//   Mod σ²_y(τ) = Σ_j [Σ_{i=j}^{j+m−1} (x_{i+2m} − 2x_{i+m} + x_i)]² / (2 m² τ² (N − 3m + 1))
// The inner sum is updated in O(1) per step, so each τ costs O(N) whatever m is.
std::vector<double> modified_adev(std::span<const double> phase_s, double tau0_s,
                                  std::span<const std::size_t> factors);

// Time deviation: TDEV(τ) = τ/√3 · MDEV(τ), in seconds.
std::vector<double> time_deviation(std::span<const double> phase_s, double tau0_s,
                                   std::span<const std::size_t> factors);

// Maximum time interval error: the largest max − min of x over any window of m + 1 consecutive
// samples (an observation interval of τ = m·tau0; ITU-T G.810). Stable32 labels the same
// window "AF = m" and lists AF = 1, 3, 7, 15, …. Exact (not an approximation), in
// O(N) time per tau and 2·(m + 1) extra samples (van Herk / Gil-Werman block extremes).
std::vector<double> mtie(std::span<const double> phase_s, std::span<const std::size_t> factors);

// Averaging factors 1, 2, 4, … up to (N − 1)/4, as Stable32 chooses its octave taus; this
// keeps at least N/4 terms in every MDEV estimate.
std::vector<std::size_t> octave_factors(std::size_t samples);

// What the report shows: the four measures at the same taus.
struct Stability {
    double tau0_s = 0;
    std::vector<std::size_t> factors;  // m, with tau = m·tau0
    std::vector<double> tau_s;
    std::vector<double> adev;    // overlapping, dimensionless
    std::vector<double> mdev;    // dimensionless
    std::vector<double> tdev_s;  // seconds
    std::vector<double> mtie_s;  // seconds
    std::size_t missing_samples = 0;
};

// Whether compute_stability() may run part of its work on a second thread (MDEV and half of
// ADEV beside MTIE), or does it all on the caller's: a caller that schedules it beside other
// work asks for one.
enum class StabilityThreads { one, two };

Stability compute_stability(std::span<const double> phase_s, double tau0_s,
                            std::span<const std::size_t> factors,
                            StabilityThreads threads = StabilityThreads::two);
Stability compute_stability(std::span<const double> phase_s, double tau0_s,
                            StabilityThreads threads = StabilityThreads::two);  // octave taus

// The phase on the full pulse grid as the report builds it. Where the phase is whole
// nanoseconds (no fractional clock step was removed) and spans less than 2^31 ns, it is held
// as int32 offsets from a reference, 4 bytes a sample: `ns`, with `hole` for a missing sample
// and every other value within ±(2^30 − 1). Otherwise `seconds`, NaN for a missing sample, as
// the functions above take it. Exactly one of the two is non-empty (or neither, for no sample).
struct PhaseGrid {
    static constexpr std::int32_t hole = std::numeric_limits<std::int32_t>::min();
    std::vector<std::int32_t> ns;
    std::int64_t reference_ns = 0;  // the phase of a sample is reference_ns + ns[k] ns
    std::vector<double> seconds;

    bool whole() const { return seconds.empty(); }
    std::size_t size() const { return whole() ? ns.size() : seconds.size(); }
};

// The four measures at the octave taus of the grid. On a whole-nanosecond grid every second
// difference, inner sum and extreme is an exact integer, so each figure is the exact one
// rounded once or summed in double (the double kernels reach it within their own rounding).
Stability compute_stability(const PhaseGrid& grid, double tau0_s,
                            StabilityThreads threads = StabilityThreads::two);

}  // namespace ppsbench::stats
