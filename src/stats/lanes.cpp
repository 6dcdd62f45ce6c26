// SPDX-License-Identifier: GPL-2.0-or-later
#include "lanes.hpp"

#include <atomic>
#include <cstdlib>
#include <string_view>

#include "ppsbench/core/simd_target.hpp"

namespace ppsbench::stats::detail {

namespace {

bool cpu_has_avx2() {
#if PPSBENCH_HAVE_AVX2_DISPATCH
    return __builtin_cpu_supports("avx2") != 0;
#else
    return false;
#endif
}

// PPSBENCH_SIMD=portable runs the kernels ARM runs (the baseline forms) on an AVX2 machine too,
// so a build's one binary can be measured and compared on both paths. It cannot take away SSE2,
// the x86-64 baseline: the CMake option PPSBENCH_PORTABLE_SIMD does (simd_target.hpp). Any
// other value, or none, leaves the choice to the CPU.
bool portable_requested() {
    const char* value = std::getenv("PPSBENCH_SIMD");
    return value != nullptr && std::string_view{value} == "portable";
}

// Read on every kernel call from any thread; written only by tests, between analyses.
std::atomic<bool> baseline_forced{false};

}  // namespace

bool avx2_dispatch() {
    static const bool avx2 = cpu_has_avx2() && !portable_requested();
    return avx2;
}

bool lanes_avx2() {
    return avx2_dispatch() && !baseline_forced.load(std::memory_order_relaxed);
}

void force_baseline_lanes(bool baseline) {
    baseline_forced.store(baseline);
}

}  // namespace ppsbench::stats::detail
