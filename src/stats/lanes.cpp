// SPDX-License-Identifier: GPL-2.0-or-later
#include "lanes.hpp"

#include <atomic>

namespace ppsbench::stats::detail {

namespace {

bool cpu_has_avx2() {
#if PPSBENCH_LANES_AVX2
    return __builtin_cpu_supports("avx2") != 0;
#else
    return false;
#endif
}

// Read on every kernel call from any thread; written only by tests, between analyses.
std::atomic<bool> baseline_forced{false};

}  // namespace

bool lanes_avx2() {
    static const bool avx2 = cpu_has_avx2();
    return avx2 && !baseline_forced.load(std::memory_order_relaxed);
}

void force_baseline_lanes(bool baseline) {
    baseline_forced.store(baseline);
}

}  // namespace ppsbench::stats::detail
