// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the kernels of a summary's passes, a block of values at a time.
//
// A series reaches the summaries as blocks (a buffer in slices, or values computed into a small
// scratch array); each kernel updates the running state of one pass over one block in four
// lanes (lanes.hpp), compiled for the CPU it runs on. The state is that of the scalar code
// (BlockedSum's lanes, RankSelector's counts and gathered values), so a series gives the same
// figures whatever its blocks and whichever kernel runs.

#include <cstddef>
#include <span>

#include "rank_selection.hpp"

namespace ppsbench::stats::detail {

// The most values a kernel takes in one call (its scratch arrays live on the stack).
inline constexpr std::size_t kernel_block = 1024;

// Pass 1 of a summary: the extremes, the sum, and the x and |x| order statistics (a null
// selector has nothing left to find). `lo`, `hi`: already set from the series' first value.
struct FirstPassParts {
    BlockedSum* sum = nullptr;
    double* lo = nullptr;
    double* hi = nullptr;
    RankSelector* x = nullptr;
    RankSelector* abs = nullptr;
};
void first_pass_block(const FirstPassParts& parts, const double* v, std::size_t count);

// Pass 2: Σ(x − mean)², Σx², and the order statistics of |x − median| (null: none left).
struct SecondPassParts {
    BlockedSum* squared_deviations = nullptr;
    BlockedSum* squares = nullptr;
    double mean = 0;
    double median = 0;
    RankSelector* distance = nullptr;
};
void second_pass_block(const SecondPassParts& parts, const double* v, std::size_t count);

// A selector's extra pass over |v − centre| (abs: centre 0 and `distance` true), or over v.
void select_block(RankSelector& selector, const double* v, std::size_t count, bool distance,
                  double centre);

// A missed bracket costs another pass with a wider window (rare; the last resort brackets
// everything, so this ends). `visit(f)` calls f(values, count) for the blocks of the series;
// the selector ranks |v − centre| when `distance`, else v.
template <typename Visit>
void finish_block_selection(RankSelector& selector, Visit& visit, bool distance, double centre) {
    while (selector.needs_pass() && !selector.end_pass()) {
        selector.begin_pass();
        visit([&](const double* v, std::size_t count) {
            select_block(selector, v, count, distance, centre);
        });
    }
}

// f(pointer, count) for consecutive slices of `values` of at most kernel_block values.
template <typename F>
void for_each_slice(std::span<const double> values, F&& f) {
    for (std::size_t i = 0; i < values.size(); i += kernel_block) {
        const std::size_t count =
            values.size() - i < kernel_block ? values.size() - i : kernel_block;
        f(values.data() + i, count);
    }
}

}  // namespace ppsbench::stats::detail
