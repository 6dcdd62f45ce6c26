#pragma once

#include <cstddef>
#include <span>

namespace ppsbench::stats {

// The headline figures of one series (phase offsets, residuals, period jitter), in ns.
// With count == 0 every figure is NaN; with count == 1 stddev is NaN (n − 1 has no meaning).
struct Summary {
    std::size_t count = 0;
    double mean = 0;
    double stddev = 0;  // sample standard deviation, n − 1 (numpy ddof=1)
    double min = 0;
    double max = 0;
    double peak_to_peak = 0;  // max − min
    double rms = 0;           // sqrt(mean(x²)): includes the mean, unlike stddev
};

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
