// SPDX-License-Identifier: GPL-2.0-or-later
// The portable-path switch (ppsbench/core/simd_target.hpp, src/stats/lanes.cpp): the summaries'
// lanes and the whole-nanosecond kernels consult one probe, so they never run different paths, and
// PPSBENCH_SIMD=portable (tests/CMakeLists.txt runs this file once more with it set) or a
// PPSBENCH_PORTABLE_SIMD build turns the AVX2 dispatch off in both.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

#include "ppsbench/core/simd_target.hpp"
#include "stats/lanes.hpp"
#include "stats/whole_kernels.hpp"

namespace ppsbench::stats::detail {
namespace {

bool portable_requested() {
    const char* value = std::getenv("PPSBENCH_SIMD");
    return value != nullptr && std::string_view{value} == "portable";
}

TEST(SimdSwitch, BothDispatchersFollowTheOneProbe) {
    EXPECT_TRUE(lanes_available(LanePath::base));
    EXPECT_EQ(lanes_available(LanePath::avx2), avx2_dispatch());
    EXPECT_EQ(widest_lanes() == LanePath::avx2, avx2_dispatch());
    EXPECT_EQ(lanes_avx2(), avx2_dispatch());
}

TEST(SimdSwitch, AvxTwoRunsOnlyWhereTheBuildTheCpuAndTheEnvironmentAllow) {
    if (portable_requested() || PPSBENCH_HAVE_AVX2_DISPATCH == 0) {
        EXPECT_FALSE(avx2_dispatch());
    }
#if PPSBENCH_HAVE_AVX2_DISPATCH
    if (!portable_requested()) {
        EXPECT_EQ(avx2_dispatch(), __builtin_cpu_supports("avx2") != 0);
    }
#endif
}

TEST(SimdSwitch, ForcingTheBaselineLeavesTheProbeAlone) {
    force_baseline_lanes(true);
    EXPECT_FALSE(lanes_avx2());
    EXPECT_EQ(lanes_available(LanePath::avx2), avx2_dispatch());
    force_baseline_lanes(false);
    EXPECT_EQ(lanes_avx2(), avx2_dispatch());
}

}  // namespace
}  // namespace ppsbench::stats::detail
