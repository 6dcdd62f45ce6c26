// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the period jitter's pairs, (t_k − t_{k−1}) − P in exact integer ns, walked in
// stretches instead of one pair at a time.
//
// The rules are for_each_period_pair()'s (train_detail.hpp, the reference the tests hold this
// to): a pair whose pulse indices differ by other than one is skipped (a gap: it opens a run of
// the pulse index), a pair ending at a break (a clock step) is skipped, a pair touching an
// excluded pulse (an outlier) is passed on flagged. Between those few, every pair is plain, and
// a stretch of plain pairs is a difference of neighbouring timestamps: one tight loop into a
// block, handed on a block at a time to the summaries' kernels.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "selection.hpp"
#include "summary_passes.hpp"
#include "train_detail.hpp"

namespace ppsbench::stats::detail {

class PeriodPairs {
  public:
    // `breaks`, `excluded`: selected-pulse positions, ascending.
    PeriodPairs(const Selection& selection, const PulseIndex& index, std::int64_t period_ns,
                std::span<const std::size_t> breaks, std::span<const std::size_t> excluded)
        : selection_(selection),
          index_(index),
          period_ns_(period_ns),
          breaks_(breaks),
          excluded_(excluded),
          direct_(selection.identity && selection.jump_at.empty()) {}

    // The counts alone, without computing a value.
    PairCounts count() const;

    // plain(values, count) for the values of plain pairs, touching(values, 1) for each pair
    // touching an excluded pulse: every pair of the series once, in time order.
    template <typename Plain, typename Touching>
    void walk(Plain&& plain, Touching&& touching) const {
        double block[kernel_block];
        for_each_stretch(
            [&](std::size_t first, std::size_t end) {
                for (std::size_t i = first; i < end; i += kernel_block) {
                    const std::size_t count = std::min(end - i, kernel_block);
                    fill(i, count, block);
                    plain(static_cast<const double*>(block), count);
                }
            },
            [&](std::size_t i, Kind kind) {
                if (kind == Kind::touching) {
                    const double value = pair_value(i);
                    touching(&value, std::size_t{1});
                }
            });
    }

    // Every value of the series (plain and touching pairs), in order.
    std::vector<double> values(std::size_t expected) const;
    // The values of the pairs ending at pulses that are multiples of `stride`: an even sample.
    std::vector<double> sample(std::size_t stride) const;

  private:
    enum class Kind { gap, step_break, touching };

    // stretch(first, end) for each run of plain pairs (pair i ends at pulse i), single(i, kind)
    // for every other pair, in pulse order.
    template <typename Stretch, typename Single>
    void for_each_stretch(Stretch&& stretch, Single&& single) const {
        std::size_t next_break = 0;
        std::size_t next_excluded = 0;
        index_.for_each_run([&](std::size_t first, std::size_t end, std::int64_t) {
            if (first > 0) {
                single(first, Kind::gap);
            }
            std::size_t i = first + 1;
            while (i < end) {
                while (next_break < breaks_.size() && breaks_[next_break] < i) {
                    ++next_break;
                }
                // A pair touches excluded pulse e if it ends at e or at e + 1.
                while (next_excluded < excluded_.size() && excluded_[next_excluded] + 1 < i) {
                    ++next_excluded;
                }
                std::size_t special = end;
                if (next_break < breaks_.size()) {
                    special = std::min(special, breaks_[next_break]);
                }
                if (next_excluded < excluded_.size()) {
                    special = std::min(special, std::max(excluded_[next_excluded], i));
                }
                if (special > i) {
                    stretch(i, special);
                    i = special;
                    continue;
                }
                const bool is_break = next_break < breaks_.size() && breaks_[next_break] == i;
                single(i, is_break ? Kind::step_break : Kind::touching);
                ++i;
            }
        });
    }

    std::int64_t timestamp(std::size_t i) const {
        return direct_ ? selection_.pulses->timestamp_ns(i)
                       : selection_.timestamp(selection_.pulse(i));
    }
    double pair_value(std::size_t i) const {
        return static_cast<double>(timestamp(i) - timestamp(i - 1) - period_ns_);
    }
    // out[j] = the value of pair first + j, for j < count.
    void fill(std::size_t first, std::size_t count, double* out) const;

    const Selection& selection_;
    const PulseIndex& index_;
    std::int64_t period_ns_;
    std::span<const std::size_t> breaks_;
    std::span<const std::size_t> excluded_;
    bool direct_;  // the selection is the packed pulses as they are: read their timestamps
};

}  // namespace ppsbench::stats::detail
