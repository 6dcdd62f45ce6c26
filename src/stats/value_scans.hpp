// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: two scans over a buffer of values in lanes (lanes.hpp), each the plain loop's result
// exactly: the outlier test and the histogram's bin counts.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ppsbench::stats::detail {

// Appends to `out` the positions first + i (ascending) where |values[i] − centre| > threshold.
void indices_beyond(std::span<const double> values, std::size_t first, double centre,
                    double threshold, std::vector<std::size_t>& out);

// Bin counts as histogram_from_quantiles() defines them: floor((v − lower) / width) below 0 is
// underflow, at or past `counts.size()` overflow, NaN is left out.
struct BinCounts {
    std::span<std::uint64_t> counts;
    std::uint64_t underflow = 0;
    std::uint64_t overflow = 0;
};
void count_bins(std::span<const double> values, double lower, double width, BinCounts& bins);

}  // namespace ppsbench::stats::detail
