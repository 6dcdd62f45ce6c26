// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ppsbench/stats/confidence.hpp"
#include "ppsbench/stats/quantile.hpp"
#include "streamed_summary.hpp"

namespace ppsbench::stats {

namespace {

using detail::nan;

Summary empty_summary() {
    Summary s;
    s.mean = s.stddev = s.min = s.max = s.peak_to_peak = s.rms = nan;
    return s;
}

}  // namespace

// The same code as analyze()'s summaries (order_statistics.hpp), on a buffer.
Summary summarize(std::span<const double> values) {
    return detail::summarize_buffer(values).summary;
}

void RunningSummary::add(double value) {
    ++count_;
    const double delta = value - mean_;
    mean_ += delta / static_cast<double>(count_);
    m2_ += delta * (value - mean_);
    sum_squares_ += value * value;
    if (count_ == 1) {
        min_ = max_ = value;
    } else {
        min_ = std::min(min_, value);
        max_ = std::max(max_, value);
    }
}

Summary RunningSummary::summary() const {
    Summary s;
    s.count = count_;
    if (count_ == 0) {
        return empty_summary();
    }
    const auto n = static_cast<double>(count_);
    s.mean = mean_;
    s.stddev = count_ > 1 ? std::sqrt(m2_ / (n - 1)) : nan;
    s.min = min_;
    s.max = max_;
    s.peak_to_peak = max_ - min_;
    s.rms = std::sqrt(sum_squares_ / n);
    return s;
}

}  // namespace ppsbench::stats
