// SPDX-License-Identifier: GPL-2.0-or-later
// The whole-nanosecond kernels' dispatch, and the one pass that finds a grid's holes and range.

#include <algorithm>
#include <limits>

#include "lanes.hpp"
#include "ppsbench/core/simd_target.hpp"
#include "ppsbench/stats/stability.hpp"
#include "whole_kernels.hpp"
#include "whole_lanes.hpp"

namespace ppsbench::stats::detail {

LanePath widest_lanes() {
    static const LanePath chosen =
        lanes_available(LanePath::avx2) ? LanePath::avx2 : LanePath::base;
    return chosen;
}

// The summaries' switch (lanes.hpp): the same CPU probe and the same PPSBENCH_SIMD, so the two
// dispatchers never disagree.
bool lanes_available(LanePath lanes) {
    return lanes == LanePath::base || avx2_dispatch();
}

namespace {

constexpr std::int32_t scan_hole = PhaseGrid::hole;

// The runs of missing samples, recorded as the scan meets them.
struct HoleRunRecorder {
    WholeGrid& g;
    bool open = false;

    void sample(std::size_t i, bool missing) {
        if (missing != open) {
            g.hole_runs.push_back(static_cast<std::uint32_t>(i));
            open = missing;
        }
        g.missing += missing ? 1 : 0;
    }
    // A block of samples none of which is missing, from i on.
    void present_from(std::size_t i) {
        if (open) {
            g.hole_runs.push_back(static_cast<std::uint32_t>(i));
            open = false;
        }
    }
};

// Most blocks of eight have no hole: one comparison each; the rare one that has is walked
// sample by sample.
template <class L>
[[gnu::always_inline]] inline void scan_body(const std::int32_t* x, std::size_t n, WholeGrid& g) {
    using I = typename L::I;
    HoleRunRecorder runs{g};
    const I holes = L::splat_i(scan_hole);
    const I top = L::splat_i(std::numeric_limits<std::int32_t>::max());
    I high = holes;  // a hole is never above a sample
    I low = top;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const I v = L::load_i(x + i);
        const I missing = L::eq(v, holes);
        high = L::max(high, v);
        low = L::min(low, L::select(missing, top, v));
        if (L::any(missing)) {
            for (std::size_t k = i; k < i + 8; ++k) {
                runs.sample(k, x[k] == scan_hole);
            }
        } else {
            runs.present_from(i);
        }
    }
    std::int32_t lanes_high[8];
    std::int32_t lanes_low[8];
    L::store_i(lanes_high, high);
    L::store_i(lanes_low, low);
    std::int32_t most = *std::max_element(lanes_high, lanes_high + 8);
    std::int32_t least = *std::min_element(lanes_low, lanes_low + 8);
    for (; i < n; ++i) {
        runs.sample(i, x[i] == scan_hole);
        if (x[i] != scan_hole) {
            most = std::max(most, x[i]);
            least = std::min(least, x[i]);
        }
    }
    if (runs.open) {
        g.hole_runs.push_back(static_cast<std::uint32_t>(n));
    }
    constexpr std::int32_t limit = (1 << 30) - 1;
    if (g.missing < n) {
        g.range = std::int64_t{most} - least;
        g.in_range = most <= limit && least >= -limit;
    }
}

[[gnu::flatten]] void scan_base(const std::int32_t* x, std::size_t n, WholeGrid& g) {
    scan_body<BaseLanes>(x, n, g);
}

#if PPSBENCH_HAVE_AVX2_DISPATCH
[[gnu::flatten, gnu::target("avx2")]] void scan_avx2(const std::int32_t* x, std::size_t n,
                                                     WholeGrid& g) {
    scan_body<Avx2Lanes>(x, n, g);
}
#endif

}  // namespace

WholeGrid scan_whole(std::span<const std::int32_t> x, LanePath lanes) {
    WholeGrid g;
    g.x = x;
#if PPSBENCH_HAVE_AVX2_DISPATCH
    if (lanes == LanePath::avx2) {
        scan_avx2(x.data(), x.size(), g);
    } else {
        scan_base(x.data(), x.size(), g);
    }
#else
    (void)lanes;
    scan_base(x.data(), x.size(), g);
#endif
    // A stretch between holes costs a few dozen instructions; past one run in 64 samples the
    // masked blocks are cheaper.
    g.dense_holes = g.runs() > x.size() / 64;
    return g;
}

}  // namespace ppsbench::stats::detail
