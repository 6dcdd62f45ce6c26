// SPDX-License-Identifier: GPL-2.0-or-later
// MTIE's long windows on a whole-nanosecond grid: bounds from block extremes, exact work only
// where a window could beat the best found.
//
// Cut the grid into blocks of B samples (B ≤ width/16). Every window starting in block a lies in
// blocks a … e_a, so its range is at most the range of their extremes, a bound that costs a few
// block reads. MTIE never falls as the window grows, so the MTIE of a shorter window is a floor;
// the blocks are taken by falling bound and each is computed exactly (its suffix extremes, the
// full blocks between, the prefix extremes of the blocks its windows end in), until no bound
// is above the best. Exact whatever the data: a skipped block's windows are at most its bound.
// Where a few outliers set the figure (the usual capture) almost every block is skipped; a
// phase that drifts (its range growing with the window) computes every block, O(N) still.

#include <algorithm>
#include <limits>

#include "ppsbench/core/simd_target.hpp"
#include "ppsbench/stats/stability.hpp"
#include "whole_lanes.hpp"
#include "whole_mtie.hpp"

namespace ppsbench::stats::detail {

namespace {

constexpr std::int32_t long_hole = PhaseGrid::hole;  // never above a sample present
constexpr std::int32_t no_low = std::numeric_limits<std::int32_t>::max();

inline std::int32_t low_of_sample(std::int32_t v) {
    return v == long_hole ? no_low : v;
}

// The extremes of each block of LargeWindowBlocks::finest samples.
template <class L>
[[gnu::always_inline]] inline void finest_body(const std::int32_t* x, std::size_t n,
                                               std::int32_t* high, std::int32_t* low) {
    using I = typename L::I;
    constexpr std::size_t size = LargeWindowBlocks::finest;
    const I holes = L::splat_i(long_hole);
    const I none = L::splat_i(no_low);
    std::size_t b = 0;
    for (; (b + 1) * size <= n; ++b) {
        I h = holes;
        I l = none;
        for (std::size_t i = b * size; i < (b + 1) * size; i += 8) {
            const I v = L::load_i(x + i);
            h = L::max(h, v);
            l = L::min(l, L::select(L::eq(v, holes), none, v));
        }
        high[b] = L::max_lane(h);
        low[b] = L::min_lane(l);
    }
    if (b * size < n) {
        high[b] = long_hole;
        low[b] = no_low;
        for (std::size_t i = b * size; i < n; ++i) {
            high[b] = std::max(high[b], x[i]);
            low[b] = std::min(low[b], low_of_sample(x[i]));
        }
    }
}

[[gnu::flatten]] void finest_base(const std::int32_t* x, std::size_t n, std::int32_t* high,
                                  std::int32_t* low) {
    finest_body<BaseLanes>(x, n, high, low);
}

#if PPSBENCH_HAVE_AVX2_DISPATCH
[[gnu::flatten, gnu::target("avx2")]] void finest_avx2(const std::int32_t* x, std::size_t n,
                                                       std::int32_t* high, std::int32_t* low) {
    finest_body<Avx2Lanes>(x, n, high, low);
}
#endif

// The exact MTIE of the windows starting in [s0, s1) ⊆ block a (s0 = a·B): each is the suffix
// of block a from its start, the full blocks a + 1 … e − 1, and the prefix of block e up to its
// last sample, e being e0 or e0 + 1 (e0 alone for octave windows, B dividing width − 1). The
// suffix extremes of block a go right to left into a buffer, eight at a time (within a register
// by three shifts, then the extremes to its right); the prefix extremes of the windows' ends
// left to right the same way, each eight against the suffixes of their starts. As in the
// doubling tables, a missing sample is −2^30 in the maxima and +2^30 in the minima.
constexpr std::int32_t block_floor = -(1 << 30);
constexpr std::int32_t block_ceiling = 1 << 30;

struct BlockScan {
    const std::int32_t* x;
    std::size_t width;
    std::size_t size;
    const std::int32_t* bh;  // the blocks' extremes (INT32_MIN, INT32_MAX: no sample)
    const std::int32_t* bl;
    std::int32_t* suffix_high;  // size entries each
    std::int32_t* suffix_low;
};

template <class L>
[[gnu::always_inline]] inline void suffix_extremes(const BlockScan& b, std::size_t s0) {
    using I = typename L::I;
    const I holes = L::splat_i(long_hole);
    const I floor = L::splat_i(block_floor);
    const I ceiling = L::splat_i(block_ceiling);
    I carry_high = floor;
    I carry_low = ceiling;
    for (std::size_t i = s0 + b.size; i > s0;) {
        i -= 8;
        const I v = L::load_i(b.x + i);
        I h = L::max(v, floor);
        I l = L::select(L::eq(v, holes), ceiling, v);
        h = L::max(h, L::template shift_down<1>(h, floor));
        l = L::min(l, L::template shift_down<1>(l, ceiling));
        h = L::max(h, L::template shift_down<2>(h, floor));
        l = L::min(l, L::template shift_down<2>(l, ceiling));
        h = L::max(L::max(h, L::template shift_down<4>(h, floor)), carry_high);
        l = L::min(L::min(l, L::template shift_down<4>(l, ceiling)), carry_low);
        L::store_i(b.suffix_high + (i - s0), h);
        L::store_i(b.suffix_low + (i - s0), l);
        carry_high = L::first_lane(h);
        carry_low = L::first_lane(l);
    }
}

// The windows starting at i in [begin, end) whose ends i + width − 1 lie in one block, whose
// samples before them are `carry_high`/`carry_low` (running extremes, updated), with the full
// blocks between `mid_high`/`mid_low`; the largest range into best.
template <class L>
[[gnu::always_inline]] inline void block_ends(const BlockScan& b, std::size_t s0, std::size_t begin,
                                              std::size_t end, std::int32_t mid_high,
                                              std::int32_t mid_low, std::int32_t& carry_high,
                                              std::int32_t& carry_low, std::int32_t& best) {
    using I = typename L::I;
    const I holes = L::splat_i(long_hole);
    const I floor = L::splat_i(block_floor);
    const I ceiling = L::splat_i(block_ceiling);
    const I mh = L::splat_i(mid_high);
    const I ml = L::splat_i(mid_low);
    I ch = L::splat_i(carry_high);
    I cl = L::splat_i(carry_low);
    I widest = L::splat_i(best);
    std::size_t i = begin;
    for (; i + 8 <= end; i += 8) {
        const I v = L::load_i(b.x + i + b.width - 1);
        I h = L::max(v, floor);
        I l = L::select(L::eq(v, holes), ceiling, v);
        h = L::max(h, L::template shift_up<1>(h, floor));
        l = L::min(l, L::template shift_up<1>(l, ceiling));
        h = L::max(h, L::template shift_up<2>(h, floor));
        l = L::min(l, L::template shift_up<2>(l, ceiling));
        h = L::max(L::max(h, L::template shift_up<4>(h, floor)), ch);
        l = L::min(L::min(l, L::template shift_up<4>(l, ceiling)), cl);
        ch = L::last_lane(h);
        cl = L::last_lane(l);
        const I top = L::max(L::max(L::load_i(b.suffix_high + (i - s0)), mh), h);
        const I bottom = L::min(L::min(L::load_i(b.suffix_low + (i - s0)), ml), l);
        widest = L::max(widest, L::sub(top, bottom));
    }
    best = L::max_lane(widest);
    carry_high = L::max_lane(ch);
    carry_low = L::min_lane(cl);
    for (; i < end; ++i) {
        const std::int32_t v = b.x[i + b.width - 1];
        carry_high = std::max(carry_high, std::max(v, block_floor));
        carry_low = std::min(carry_low, v == long_hole ? block_ceiling : v);
        const std::int32_t top = std::max({b.suffix_high[i - s0], mid_high, carry_high});
        const std::int32_t bottom = std::min({b.suffix_low[i - s0], mid_low, carry_low});
        best = std::max(best, top - bottom);
    }
}

template <class L>
[[gnu::always_inline]] inline std::int64_t block_best_body(const BlockScan& b, std::size_t a,
                                                           std::size_t s1) {
    const std::size_t s0 = a * b.size;  // block a ends before every window does
    suffix_extremes<L>(b, s0);
    const std::size_t e0 = (s0 + b.width - 1) / b.size;
    std::int32_t mid_high = block_floor;
    std::int32_t mid_low = block_ceiling;
    for (std::size_t k = a + 1; k < e0; ++k) {
        mid_high = std::max(mid_high, b.bh[k]);
        mid_low = std::min(mid_low, b.bl[k]);
    }
    const std::size_t from = e0 * b.size;  // the ends' block
    std::int32_t carry_high = block_floor;
    std::int32_t carry_low = block_ceiling;
    for (std::size_t p = from; p < s0 + b.width - 1; ++p) {  // before the first end
        carry_high = std::max(carry_high, std::max(b.x[p], block_floor));
        carry_low = std::min(carry_low, b.x[p] == long_hole ? block_ceiling : b.x[p]);
    }
    const std::size_t split = std::min(s1, from + b.size - b.width + 1);
    std::int32_t best = -1;
    block_ends<L>(b, s0, s0, split, mid_high, mid_low, carry_high, carry_low, best);
    if (split < s1) {  // the ends in block e0 + 1: block e0 joins the full blocks
        mid_high = std::max(mid_high, b.bh[e0]);
        mid_low = std::min(mid_low, b.bl[e0]);
        carry_high = block_floor;
        carry_low = block_ceiling;
        block_ends<L>(b, s0, split, s1, mid_high, mid_low, carry_high, carry_low, best);
    }
    return best;
}

[[gnu::flatten]] std::int64_t block_best_base(const BlockScan& b, std::size_t a, std::size_t s1) {
    return block_best_body<BaseLanes>(b, a, s1);
}

#if PPSBENCH_HAVE_AVX2_DISPATCH
[[gnu::flatten, gnu::target("avx2")]] std::int64_t block_best_avx2(const BlockScan& b,
                                                                   std::size_t a, std::size_t s1) {
    return block_best_body<Avx2Lanes>(b, a, s1);
}
#endif

struct Extremes {
    std::int32_t high = long_hole;
    std::int32_t low = no_low;
    void add(std::int32_t h, std::int32_t l) {
        high = std::max(high, h);
        low = std::min(low, l);
    }
    std::int64_t range() const { return std::int64_t{high} - low; }  // < 0: no sample
};

}  // namespace

void LargeWindowBlocks::at(std::size_t size, const std::int32_t*& high, const std::int32_t*& low) {
    const std::size_t n = g_.size();
    if (size_ == 0 || size_ > size) {
        size_ = finest;
        high_.resize((n + finest - 1) / finest);
        low_.resize(high_.size());
#if PPSBENCH_HAVE_AVX2_DISPATCH
        if (lanes_ == LanePath::avx2) {
            finest_avx2(g_.x.data(), n, high_.data(), low_.data());
        } else {
            finest_base(g_.x.data(), n, high_.data(), low_.data());
        }
#else
        finest_base(g_.x.data(), n, high_.data(), low_.data());
#endif
    }
    while (size_ < size) {  // pairs of blocks, in place
        const std::size_t count = (high_.size() + 1) / 2;
        for (std::size_t b = 0; b < count; ++b) {
            const bool pair = 2 * b + 1 < high_.size();
            high_[b] = pair ? std::max(high_[2 * b], high_[2 * b + 1]) : high_[2 * b];
            low_[b] = pair ? std::min(low_[2 * b], low_[2 * b + 1]) : low_[2 * b];
        }
        high_.resize(count);
        low_.resize(count);
        size_ *= 2;
    }
    high = high_.data();
    low = low_.data();
}

std::int64_t large_window(const WholeGrid& g, std::size_t width, std::int64_t floor,
                          LargeWindowBlocks& blocks) {
    const std::size_t n = g.size();
    std::size_t size = LargeWindowBlocks::finest;
    while (32 * size <= width) {
        size *= 2;
    }
    const std::int32_t* bh = nullptr;
    const std::int32_t* bl = nullptr;
    blocks.at(size, bh, bl);
    const std::size_t starts = n - width + 1;
    struct Candidate {
        std::int64_t bound;
        std::size_t block;
    };
    std::vector<Candidate> candidates;
    for (std::size_t a = 0; a * size < starts; ++a) {
        const std::size_t s1 = std::min((a + 1) * size, starts);
        Extremes all;
        for (std::size_t k = a; k <= (s1 + width - 2) / size; ++k) {
            all.add(bh[k], bl[k]);
        }
        if (all.range() > floor) {
            candidates.push_back({all.range(), a});
        }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate& p, const Candidate& q) { return p.bound > q.bound; });
    std::int64_t best = floor;
    std::vector<std::int32_t> suffix(2 * size);
    const BlockScan scan{g.x.data(), width, size, bh, bl, suffix.data(), suffix.data() + size};
    auto exact = block_best_base;
#if PPSBENCH_HAVE_AVX2_DISPATCH
    exact = blocks.lanes() == LanePath::avx2 ? block_best_avx2 : exact;
#endif
    for (const Candidate& c : candidates) {
        if (c.bound <= best) {
            break;
        }
        best = std::max(best, exact(scan, c.block, std::min((c.block + 1) * size, starts)));
    }
    return best;
}

}  // namespace ppsbench::stats::detail
