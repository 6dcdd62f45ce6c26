// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: make_histogram's rules on precomputed quantiles, so analyze() can take them from
// the pass that summarises the same series instead of selecting over a copy.

#include <algorithm>
#include <cmath>
#include <span>

#include "ppsbench/stats/histogram.hpp"
#include "value_scans.hpp"

namespace ppsbench::stats::detail {

// The x-quantiles the bin rules need: range, robust range and the IQR.
inline constexpr double histogram_quantiles[] = {0.0, 0.001, 0.25, 0.75, 0.999, 1.0};

// The empty histogram of `count` values: edges and zero counts. `q`: the values of
// histogram_quantiles; `stddev`: the series' sample σ (Scott's fallback).
inline Histogram empty_bins(std::span<const double> q, std::size_t count, double stddev,
                            const HistogramOptions& options) {
    Histogram h;
    if (count == 0) {
        return h;
    }
    const double n = static_cast<double>(count);

    double width = options.bin_width.value_or(0.0);
    if (!(width > 0.0)) {
        width = 2.0 * (q[3] - q[2]) / std::cbrt(n);
        if (!(width > 0.0)) {
            width = stddev > 0.0 ? 3.49 * stddev / std::cbrt(n) : 1.0;
        }
    }
    double lower = options.lower.value_or(q[0]);
    double upper = options.upper.value_or(q[5]);
    const auto bins_for = [&](double lo, double hi) { return std::floor((hi - lo) / width) + 1.0; };
    const auto max_bins = static_cast<double>(std::max<std::size_t>(options.max_bins, 1));
    if (!options.lower && !options.upper && bins_for(lower, upper) > max_bins) {
        lower = q[1];
        upper = q[4];
        if (bins_for(lower, upper) > max_bins) {
            width = (upper - lower) / (max_bins - 1.0);
        }
    }
    // Align edges to multiples of the width, so bins read as round numbers.
    if (!options.lower) {
        lower = std::floor(lower / width) * width;
    }
    double bins = options.upper ? std::ceil((upper - lower) / width) : bins_for(lower, upper);
    bins = std::clamp(bins, 1.0, std::max(max_bins, 1.0));
    h.lower_edge = lower;
    h.bin_width = width;
    h.counts.assign(static_cast<std::size_t>(bins), 0);
    return h;
}

// The histogram of a series whose quantiles are known; `visit(f)` calls f(double) for every
// value (any order: only counts come out).
template <typename Visit>
Histogram histogram_from_quantiles(std::span<const double> q, std::size_t count, double stddev,
                                   Visit visit, const HistogramOptions& options) {
    Histogram h = empty_bins(q, count, stddev, options);
    if (h.counts.empty()) {
        return h;
    }
    const double lower = h.lower_edge;
    const double width = h.bin_width;
    const auto bins = static_cast<double>(h.counts.size());
    visit([&](double v) {
        if (std::isnan(v)) {
            return;  // no bin for "not a number"; callers pass measured values only
        }
        const double position = std::floor((v - lower) / width);
        if (position < 0.0) {
            ++h.underflow;
        } else if (position >= bins) {
            ++h.overflow;
        } else {
            ++h.counts[static_cast<std::size_t>(position)];
        }
    });
    return h;
}

// The same for a series in a buffer, counted in lanes (value_scans.hpp): the same counts.
inline Histogram histogram_of_buffer(std::span<const double> q, std::span<const double> values,
                                     double stddev, const HistogramOptions& options) {
    Histogram h = empty_bins(q, values.size(), stddev, options);
    if (!h.counts.empty()) {
        BinCounts bins{h.counts};
        count_bins(values, h.lower_edge, h.bin_width, bins);
        h.underflow = bins.underflow;
        h.overflow = bins.overflow;
    }
    return h;
}

}  // namespace ppsbench::stats::detail
