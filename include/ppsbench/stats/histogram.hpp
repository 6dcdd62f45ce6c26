// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ppsbench::stats {

// Bin i covers [lower_edge + i·bin_width, lower_edge + (i+1)·bin_width). Values below the first
// bin are counted in `underflow`, values at or above the last edge in `overflow`: nothing is
// dropped silently (the counts add up to the number of values).
struct Histogram {
    double lower_edge = 0;
    double bin_width = 0;
    std::vector<std::uint64_t> counts;
    std::uint64_t underflow = 0;
    std::uint64_t overflow = 0;

    double upper_edge() const {
        return lower_edge + bin_width * static_cast<double>(counts.size());
    }
    std::uint64_t total() const;
};

struct HistogramOptions {
    // Fixed bin width; when absent, Freedman–Diaconis: 2·IQR·n^(−1/3) (Scott's 3.49·σ·n^(−1/3)
    // when the IQR is 0, 1 when σ is 0 too).
    std::optional<double> bin_width;
    // Fixed range; when absent, [min, max], narrowed to the 0.1 % … 99.9 % quantiles when that
    // would need more than max_bins bins (heavy tails then land in under/overflow), and the
    // width widened as a last resort.
    std::optional<double> lower;
    std::optional<double> upper;
    std::size_t max_bins = 1000;
};

Histogram make_histogram(std::span<const double> values, const HistogramOptions& options = {});

// The same for a series of integer nanoseconds (latencies, intervals), read in place: the
// histogram make_histogram() gives for the values converted to double.
Histogram make_histogram_ns(std::span<const std::int64_t> values_ns,
                            const HistogramOptions& options = {});

}  // namespace ppsbench::stats
