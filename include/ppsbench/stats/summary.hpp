// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <limits>
#include <span>

#include "ppsbench/stats/interval.hpp"

namespace ppsbench::stats {

// Percentiles of |x| (numpy's linear interpolation), for "99.9 % of pulses were within …".
struct AbsPercentiles {
    static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    double p50 = nan;
    double p90 = nan;
    double p99 = nan;
    double p99_9 = nan;
    double p99_99 = nan;
    double max = nan;
};

// The headline figures of one series (phase offsets, residuals, period jitter), in ns.
// With count == 0 every figure is NaN; with count == 1 stddev and its interval are NaN (n − 1
// has no meaning). docs/methodology.md gives each formula with a worked example.
struct Summary {
    static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    std::size_t count = 0;
    double mean = 0;
    double stddev = 0;  // sample standard deviation, n − 1 (numpy ddof=1)
    double min = 0;
    double max = 0;
    double peak_to_peak = 0;  // max − min
    double rms = 0;           // sqrt(mean(x²)): includes the mean, unlike stddev
    // The order statistics below need every value, so RunningSummary leaves them NaN; only
    // summarize() fills them.
    double median = nan;
    double robust_stddev = nan;  // 1.4826 · median(|x − median|)
    AbsPercentiles abs_percentiles;
    Interval stddev_ci95;  // chi-square interval for σ, assuming independent normal samples
};

// Every figure of Summary. Reads the values in place (no copy, no reordering); O(n).
Summary summarize(std::span<const double> values);

// Streaming mean/σ/min/max/RMS for the live status line (Welford's update, as linuxptp's
// stats.c): constant memory, no allocation per sample.
class RunningSummary {
  public:
    void add(double value);
    void reset() { *this = RunningSummary{}; }
    Summary summary() const;

  private:
    std::size_t count_ = 0;
    double mean_ = 0;
    double m2_ = 0;
    double sum_squares_ = 0;
    double min_ = 0;
    double max_ = 0;
};

}  // namespace ppsbench::stats
