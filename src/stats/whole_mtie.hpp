// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: MTIE's long windows on a whole-nanosecond grid (whole_mtie_large.cpp), for
// whole_mtie() (whole_mtie.cpp), which takes the windows up to whole_small_window samples.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "whole_kernels.hpp"

namespace ppsbench::stats::detail {

// Windows of up to whole_small_window samples take the doubling tables (whole_mtie.cpp), built
// for whole_chunk window starts at a time (and the window's overlap): the tables stay in the
// cache. Longer windows take the block bounds (whole_mtie_large.cpp), which skip most of the
// series where a few outliers set the figure, but cost more a block than a doubling pass where
// the window is short.
inline constexpr std::size_t whole_small_window = 1025;
inline constexpr std::size_t whole_chunk = 65536;

// The extremes of the grid's blocks of 2^k samples (a missing sample never chosen; a block of
// holes alone has INT32_MIN and INT32_MAX), the finest found in one pass, coarser ones from them.
class LargeWindowBlocks {
  public:
    LargeWindowBlocks(const WholeGrid& g, LanePath lanes) : g_(g), lanes_(lanes) {}
    // Blocks of `size` samples (a power of two, at least finest), the last one possibly short.
    void at(std::size_t size, const std::int32_t*& high, const std::int32_t*& low);

    static constexpr std::size_t finest = 64;
    LanePath lanes() const { return lanes_; }

  private:
    const WholeGrid& g_;
    LanePath lanes_;
    std::size_t size_ = 0;
    std::vector<std::int32_t> high_;
    std::vector<std::int32_t> low_;
};

// MTIE of the windows of `width` > whole_small_window samples, in ns (−1: every window is
// empty), given `floor`, the MTIE of some shorter window (−1 if none): the result is never
// below it, so the blocks whose windows cannot exceed it are skipped.
std::int64_t large_window(const WholeGrid& g, std::size_t width, std::int64_t floor,
                          LargeWindowBlocks& blocks);

}  // namespace ppsbench::stats::detail
