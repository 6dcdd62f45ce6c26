// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the stretches of a whole-nanosecond grid where a term of MDEV reads no missing
// sample, from the grid's hole runs (whole_kernels.hpp).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

namespace ppsbench::stats::detail {

// The term at i reads samples i + o for o in some set; a hole run [s, e) then rules out the
// terms in [s − far, e − near) for each read window [near, far] of that set (MDEV: the one
// window [0, 3m − 1]). for_each(from, limit, f) calls f(a, b) for every maximal [a, b) ⊆
// [from, limit) that no run rules out, in ascending order.
struct ReadWindow {
    std::size_t near = 0;
    std::size_t far = 0;
};

template <std::size_t Windows>
class CleanStretches {
  public:
    CleanStretches(std::span<const std::uint32_t> hole_runs, std::span<const ReadWindow> windows)
        : runs_(hole_runs) {
        std::copy(windows.begin(), windows.begin() + Windows, windows_);
    }

    template <typename F>
    void for_each(std::size_t from, std::size_t limit, F f) {
        const auto end = static_cast<std::int64_t>(limit);
        auto i = static_cast<std::int64_t>(from);
        std::size_t cursor[Windows] = {};
        const std::size_t count = runs_.size() / 2;
        while (i < end) {
            std::int64_t next = end;   // where the next run rules terms out
            std::int64_t blocked = i;  // the end of the runs that rule i out
            for (std::size_t w = 0; w < Windows; ++w) {
                const auto near = static_cast<std::int64_t>(windows_[w].near);
                const auto far = static_cast<std::int64_t>(windows_[w].far);
                std::size_t& c = cursor[w];
                while (c < count && static_cast<std::int64_t>(runs_[2 * c + 1]) - near <= i) {
                    ++c;
                }
                if (c == count) {
                    continue;
                }
                const std::int64_t from = static_cast<std::int64_t>(runs_[2 * c]) - far;
                if (from <= i) {
                    blocked = std::max(blocked, static_cast<std::int64_t>(runs_[2 * c + 1]) - near);
                } else {
                    next = std::min(next, from);
                }
            }
            if (blocked > i) {
                i = blocked;
                continue;
            }
            f(static_cast<std::size_t>(i), static_cast<std::size_t>(next));
            i = next;
        }
    }

  private:
    std::span<const std::uint32_t> runs_;
    ReadWindow windows_[Windows];
};

}  // namespace ppsbench::stats::detail
