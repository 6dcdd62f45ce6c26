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
void finest_body(const std::int32_t* x, std::size_t n, std::int32_t* high, std::int32_t* low) {
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

#if defined(__x86_64__)
[[gnu::flatten, gnu::target("avx2")]] void finest_avx2(const std::int32_t* x, std::size_t n,
                                                       std::int32_t* high, std::int32_t* low) {
    finest_body<Avx2Lanes>(x, n, high, low);
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

// The exact MTIE of the windows starting in [s0, s1) ⊆ block a (s0 = a·B): each is the suffix
// of block a from its start, the full blocks a + 1 … e − 1, and the prefix of block e up to its
// last sample, e being e0 or e0 + 1.
class BlockWindows {
  public:
    BlockWindows(const WholeGrid& g, std::size_t width, std::size_t size, const std::int32_t* bh,
                 const std::int32_t* bl)
        : x_(g.x.data()), width_(width), size_(size), bh_(bh), bl_(bl) {
        suffix_high_.resize(size);
        suffix_low_.resize(size);
        prefix_high_.resize(2 * size);
        prefix_low_.resize(2 * size);
    }

    std::int64_t best(std::size_t a, std::size_t s1) {
        const std::size_t s0 = a * size_;
        const std::size_t end = s0 + size_;  // block a ends before every window does
        Extremes run;
        for (std::size_t i = end; i-- > s0;) {
            run.add(x_[i], low_of_sample(x_[i]));
            suffix_high_[i - s0] = run.high;
            suffix_low_[i - s0] = run.low;
        }
        const std::size_t e0 = (s0 + width_ - 1) / size_;
        Extremes mid;
        for (std::size_t k = a + 1; k < e0; ++k) {
            mid.add(bh_[k], bl_[k]);
        }
        const std::size_t from = e0 * size_;
        const std::size_t last = s1 + width_ - 1;  // one past the last sample read
        for (std::size_t p = from; p < last; ++p) {
            if (p == from || p == from + size_) {
                run = Extremes{};
            }
            run.add(x_[p], low_of_sample(x_[p]));
            prefix_high_[p - from] = run.high;
            prefix_low_[p - from] = run.low;
        }
        const std::size_t split = std::min(s1, from + size_ - width_ + 1);
        std::int64_t best = -1;
        windows(s0, split, mid, s0, from, best);
        mid.add(bh_[e0], bl_[e0]);
        windows(split, s1, mid, s0, from, best);
        return best;
    }

  private:
    void windows(std::size_t begin, std::size_t end, const Extremes& mid, std::size_t s0,
                 std::size_t from, std::int64_t& best) const {
        for (std::size_t i = begin; i < end; ++i) {
            const std::size_t p = i + width_ - 1 - from;
            const std::int32_t high = std::max({suffix_high_[i - s0], mid.high, prefix_high_[p]});
            const std::int32_t low = std::min({suffix_low_[i - s0], mid.low, prefix_low_[p]});
            best = std::max(best, std::int64_t{high} - low);
        }
    }

    const std::int32_t* x_;
    std::size_t width_;
    std::size_t size_;
    const std::int32_t* bh_;
    const std::int32_t* bl_;
    std::vector<std::int32_t> suffix_high_;
    std::vector<std::int32_t> suffix_low_;
    std::vector<std::int32_t> prefix_high_;
    std::vector<std::int32_t> prefix_low_;
};

}  // namespace

void LargeWindowBlocks::at(std::size_t size, const std::int32_t*& high, const std::int32_t*& low) {
    const std::size_t n = g_.size();
    if (size_ == 0 || size_ > size) {
        size_ = finest;
        high_.resize((n + finest - 1) / finest);
        low_.resize(high_.size());
#if defined(__x86_64__)
        if (lanes_ == Lanes::avx2) {
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
    BlockWindows exact(g, width, size, bh, bl);
    for (const Candidate& c : candidates) {
        if (c.bound <= best) {
            break;
        }
        best = std::max(best, exact.best(c.block, std::min((c.block + 1) * size, starts)));
    }
    return best;
}

}  // namespace ppsbench::stats::detail
