// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: exact order statistics (ranks) of a streamed series, and the exact-order sums the
// summaries use, for order_statistics.hpp.
//
// In the manner of Floyd & Rivest's selection: an even sample of ~65 k values brackets each
// wanted rank in a narrow value window; a pass counts the values below each window and gathers
// the few inside it; a selection among those gives the exact order statistic. If a bracket
// misses (a sample can be unlucky) the window is widened and the pass repeated, up to the
// whole range, so the result is always exact, and identical to a selection over a sorted copy.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "gathered_values.hpp"
#include "lanes.hpp"

namespace ppsbench::stats::detail {

inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// numpy's _lerp: a + (b − a)·t, but computed from b when t ≥ 0.5 so that t = 1 gives exactly b.
inline double lerp(double a, double b, double t) {
    const double diff = b - a;
    return t >= 0.5 ? b - diff * (1.0 - t) : a + diff * t;
}

// numpy's "linear" quantile position h = q·(n − 1), split into floor and fraction.
struct Position {
    std::size_t below;  // floor(h)
    double fraction;    // h − floor(h)
};

inline Position position(std::size_t n, double q) {
    const double h = q * static_cast<double>(n - 1);
    const double below = std::floor(h);
    auto index = static_cast<std::size_t>(below);
    if (index >= n - 1) {
        return {n - 1, 0.0};
    }
    return {index, h - below};
}

// Σ term over a stream, in the exact order of summary.cpp's blocked_sum: blocks of 1024 values
// summed in four double lanes (whole groups of four; a short last group into lane 0), the
// block sums added in long double. Same order, same roundings, same bits.
class BlockedSum {
  public:
    [[gnu::always_inline]] void add(double term) {
        group_[grouped_++] = term;
        if (grouped_ == 4) {
            lanes_[0] += group_[0];
            lanes_[1] += group_[1];
            lanes_[2] += group_[2];
            lanes_[3] += group_[3];
            grouped_ = 0;
        }
        if (++in_block_ == block) {
            flush();
        }
    }
    // The terms v[0, count) as add() would take them one by one, the same sums to the bit: within
    // a block the k-th term of each group of four goes to lane k, so whole groups are one Lanes
    // addition. Inlined into the kernels (summary_passes.cpp), which are compiled per CPU.
    template <typename Form>
    [[gnu::always_inline]] void add_block(const double* v, std::size_t count) {
        std::size_t i = 0;
        while (i < count && grouped_ != 0) {
            add(v[i++]);
        }
        while (count - i >= lane_count) {
            // grouped_ is 0 here, so the block holds whole groups and its room is a multiple of 4.
            const std::size_t room = block - in_block_;
            const std::size_t take = std::min(room, (count - i) / lane_count * lane_count);
            add_groups<Form>(v + i, take);
            i += take;
            in_block_ += take;
            if (in_block_ == block) {
                flush();
            }
        }
        while (i < count) {
            add(v[i++]);
        }
    }
    long double total() {
        if (in_block_ > 0) {
            flush();
        }
        return total_;
    }

  private:
    static constexpr std::size_t block = 1024;
    // take / 4 whole groups of four into the lanes. The baseline form adds in 16-byte halves,
    // lanes 0–1 and 2–3, each lane the same additions in the same order: GCC 12 would keep a
    // 32-byte vector of a function not compiled for AVX in memory (a load and a store an add).
    template <typename Form>
    [[gnu::always_inline]] void add_groups(const double* v, std::size_t take) {
        if constexpr (Form::avx2) {
            Lanes lanes = load_lanes(lanes_);
            for (std::size_t g = 0; g < take; g += lane_count) {
                lanes += load_lanes(v + g);
            }
            store_lanes(lanes_, lanes);
        } else {
            HalfLanes low;
            HalfLanes high;
            std::memcpy(&low, lanes_, sizeof low);
            std::memcpy(&high, lanes_ + 2, sizeof high);
            for (std::size_t g = 0; g < take; g += lane_count) {
                HalfLanes a;
                HalfLanes b;
                std::memcpy(&a, v + g, sizeof a);
                std::memcpy(&b, v + g + 2, sizeof b);
                low += a;
                high += b;
            }
            std::memcpy(lanes_, &low, sizeof low);
            std::memcpy(lanes_ + 2, &high, sizeof high);
        }
    }
    void flush() {
        for (std::size_t i = 0; i < grouped_; ++i) {
            lanes_[0] += group_[i];
        }
        total_ += (static_cast<long double>(lanes_[0]) + lanes_[1]) + (lanes_[2] + lanes_[3]);
        lanes_[0] = lanes_[1] = lanes_[2] = lanes_[3] = 0;
        grouped_ = 0;
        in_block_ = 0;
    }
    long double total_ = 0;
    double lanes_[4] = {0, 0, 0, 0};
    double group_[4] = {0, 0, 0, 0};
    std::size_t grouped_ = 0;
    std::size_t in_block_ = 0;
};

// Exact order statistics (ranks) of n streamed values; see the header comment.
class RankSelector {
  public:
    // `sample`: values taken at an even stride, ascending; `whole` says it is every value, in
    // which case the answers come straight from it and no pass is needed.
    RankSelector(std::vector<double> sample, bool whole, std::size_t n,
                 std::vector<std::size_t> ranks);

    bool needs_pass() const { return !done_; }
    void begin_pass();
    // Values are buffered and handled a batch at a time, window by window: counting the values
    // below a window is then a branch-free loop the compiler vectorises, and only the few
    // values inside a window take a branch. (Per value, a search through the windows
    // mispredicts on random data and costs several times more.)
    [[gnu::always_inline]] void add(double v) {
        batch_[batched_++] = v;
        if (batched_ == batch_size) {
            flush();
        }
    }
    // The values v[0, count) at once, read in place (no batch copy); inlined into the kernels of
    // summary_passes.cpp. The order values arrive in changes nothing: only counts and the
    // gathered sets come out.
    template <typename Form>
    [[gnu::always_inline]] void add_block(const double* v, std::size_t count) {
        for (std::size_t j = 0; j < windows_.size(); ++j) {
            count_window<Form>(j, v, count);
        }
    }
    // Resolves the ranks the pass bracketed; false if some need another (wider) pass.
    bool end_pass();
    double value(std::size_t rank) const;

  private:
    struct Window {
        double lo;
        double hi;
        std::vector<std::size_t> ranks;
        GatheredValues values;   // gathered when lo < hi
        double first_index = 0;  // the sample positions it spans
        double last_index = 0;
        std::size_t expected = 0;  // values a pass should gather, from the sample
    };
    static constexpr std::size_t batch_size = 256;
    void flush();
    // Window j over v[0, count): the values below it counted, those inside gathered. Four lanes
    // at a time, sixteen values a test: a window holds a few percent of the values, so the test
    // is rarely true and the few values inside take a scalar look.
    template <typename Form>
    [[gnu::always_inline]] void count_window(std::size_t j, const double* v, std::size_t count) {
        Window& w = windows_[j];
        const Lanes lo = splat(w.lo);
        const Lanes hi = splat(w.hi);
        LaneMask below = {};
        std::size_t i = 0;
        std::size_t tail_below = 0;
        if (w.lo == w.hi) {
            LaneMask equal = {};
            for (; i + lane_count <= count; i += lane_count) {
                const Lanes x = load_lanes(v + i);
                below -= lanes_less<Form>(x, lo);
                equal -= lanes_equal<Form>(x, lo);
            }
            std::size_t inside = lane_total(equal);
            for (; i < count; ++i) {
                tail_below += v[i] < w.lo ? 1 : 0;
                inside += v[i] == w.lo ? 1 : 0;
            }
            equal_[j] += inside;
            below_[j] += tail_below + lane_total(below);
            return;
        }
        // Each append stores four lanes: room for every value of the block and one group more.
        w.values.reserve_more(count + lane_count);
        if constexpr (!Form::avx2) {
            i = count_in_halves(w, v, count, tail_below);
        }
        for (; i + 4 * lane_count <= count; i += 4 * lane_count) {
            const Lanes a = load_lanes(v + i);
            const Lanes b = load_lanes(v + i + 4);
            const Lanes c = load_lanes(v + i + 8);
            const Lanes d = load_lanes(v + i + 12);
            below -= lanes_less<Form>(a, lo);
            below -= lanes_less<Form>(b, lo);
            below -= lanes_less<Form>(c, lo);
            below -= lanes_less<Form>(d, lo);
            // Ordered comparisons, false for NaN, as in flush().
            const LaneMask in_a = lanes_less_equal<Form>(lo, a) & lanes_less_equal<Form>(a, hi);
            const LaneMask in_b = lanes_less_equal<Form>(lo, b) & lanes_less_equal<Form>(b, hi);
            const LaneMask in_c = lanes_less_equal<Form>(lo, c) & lanes_less_equal<Form>(c, hi);
            const LaneMask in_d = lanes_less_equal<Form>(lo, d) & lanes_less_equal<Form>(d, hi);
            if (any_lane<Form>((in_a | in_b) | (in_c | in_d))) [[unlikely]] {
                w.values.advance(pack_lanes<Form>(w.values.end(), a, in_a));
                w.values.advance(pack_lanes<Form>(w.values.end(), b, in_b));
                w.values.advance(pack_lanes<Form>(w.values.end(), c, in_c));
                w.values.advance(pack_lanes<Form>(w.values.end(), d, in_d));
            }
        }
        for (; i < count; ++i) {
            tail_below += v[i] < w.lo ? 1 : 0;
            if (v[i] >= w.lo && v[i] <= w.hi) {
                w.values.push_back(v[i]);
            }
        }
        below_[j] += tail_below + lane_total(below);
    }
    // The baseline form's groups of sixteen in 16-byte halves: GCC 12 keeps a 32-byte vector of
    // a function not compiled for AVX in memory, a load and a store about every operation (the
    // portable path's first pass took three times the instructions of this loop). The same
    // counts; a group with a value inside is packed as count_window() packs it, so the same
    // values are gathered in the same order. Returns where it stopped.
    // A group's values inside the window are found by counting, not by a mask per value: with
    // lo ≤ hi, x ≤ hi and not x < lo is x inside, so (values ≤ hi) − (values < lo) grows by the
    // values inside (both comparisons ordered: a NaN counts in neither, as in flush()). Two
    // compares a half instead of three and two logic operations.
    [[gnu::always_inline]] static std::size_t count_in_halves(Window& w, const double* v,
                                                              std::size_t count,
                                                              std::size_t& below) {
        const HalfLanes lo = {w.lo, w.lo};
        const HalfLanes hi = {w.hi, w.hi};
        HalfMask under = {};
        HalfMask upto = {};
        std::int64_t inside_before = 0;
        std::size_t i = 0;
        for (; i + 4 * lane_count <= count; i += 4 * lane_count) {
#pragma GCC unroll 8
            for (std::size_t h = 0; h < 2 * lane_count; ++h) {
                HalfLanes x;
                std::memcpy(&x, v + i + 2 * h, sizeof x);
                under -= x < lo;
                upto -= x <= hi;
            }
            const HalfMask inside = upto - under;
            const std::int64_t inside_now = inside[0] + inside[1];
            if (inside_now != inside_before) [[unlikely]] {
                inside_before = inside_now;
                // As pack_lanes() packs them, in halves: each value written, kept if inside.
                double* out = w.values.end();
                std::size_t kept = 0;
#pragma GCC unroll 8
                for (std::size_t h = 0; h < 2 * lane_count; ++h) {
                    HalfLanes x;
                    std::memcpy(&x, v + i + 2 * h, sizeof x);
                    const HalfMask in = (lo <= x) & (x <= hi);
                    out[kept] = x[0];
                    kept -= static_cast<std::size_t>(in[0]);
                    out[kept] = x[1];
                    kept -= static_cast<std::size_t>(in[1]);
                }
                w.values.advance(kept);
            }
        }
        below += static_cast<std::size_t>(under[0] + under[1]);
        return i;
    }
    [[gnu::always_inline]] static std::size_t lane_total(LaneMask counts) {
        return static_cast<std::size_t>((counts[0] + counts[1]) + (counts[2] + counts[3]));
    }
    void plan();

    std::vector<double> sample_;  // sorted
    std::size_t n_;
    std::vector<std::size_t> pending_;  // ranks still to find, ascending
    std::vector<std::pair<std::size_t, double>> found_;
    std::vector<Window> windows_;
    std::vector<std::size_t> below_;  // per window: values < lo seen this pass
    std::vector<std::size_t> equal_;  // per window with lo == hi: values equal to it
    double batch_[batch_size] = {};
    std::size_t batched_ = 0;
    double widen_ = 1;
    bool done_ = false;
};

// |x − c| of ascending values, ascending, by merging the two monotone halves: no sort.
std::vector<double> sorted_distances(std::span<const double> sorted, double c);

}  // namespace ppsbench::stats::detail
