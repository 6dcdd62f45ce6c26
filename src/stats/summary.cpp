#include "ppsbench/stats/summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ppsbench/stats/confidence.hpp"
#include "ppsbench/stats/quantile.hpp"

namespace ppsbench::stats {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

Summary empty_summary() {
    Summary s;
    s.mean = s.stddev = s.min = s.max = s.peak_to_peak = s.rms = nan;
    return s;
}

template <typename F>
long double blocked_sum(std::span<const double> values, F term) {
    constexpr std::size_t block = 1024;
    long double total = 0;
    for (std::size_t start = 0; start < values.size(); start += block) {
        const std::size_t end = std::min(values.size(), start + block);
        double lanes[4] = {0, 0, 0, 0};
        std::size_t i = start;
        for (; i + 4 <= end; i += 4) {
            lanes[0] += term(values[i]);
            lanes[1] += term(values[i + 1]);
            lanes[2] += term(values[i + 2]);
            lanes[3] += term(values[i + 3]);
        }
        for (; i < end; ++i) {
            lanes[0] += term(values[i]);
        }
        total += (static_cast<long double>(lanes[0]) + lanes[1]) + (lanes[2] + lanes[3]);
    }
    return total;
}

// median(|x − center|) without writing |x − center| into the values: selecting with a
// comparator on the distance keeps the values themselves intact for the next step.
double median_abs_deviation_in_place(std::span<double> values, double center) {
    const std::size_t n = values.size();
    auto distance_less = [center](double a, double b) {
        return std::abs(a - center) < std::abs(b - center);
    };
    auto middle = values.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(values.begin(), middle, values.end(), distance_less);
    const double upper = std::abs(*middle - center);
    if (n % 2 == 1) {
        return upper;
    }
    const double lower =
        std::abs(*std::max_element(values.begin(), middle, distance_less) - center);
    return (lower + upper) / 2.0;
}

}  // namespace

Summary summarize(std::span<const double> values) {
    std::vector<double> scratch(values.begin(), values.end());
    return summarize_in_place(scratch);
}

Summary summarize_in_place(std::span<double> values) {
    const std::size_t n = values.size();
    if (n == 0) {
        return empty_summary();
    }
    // Two passes: the mean first, then squared deviations from it. The one-pass textbook
    // formula loses everything when the mean is large next to σ (offsets of a source 300 ns
    // late with 20 ns jitter are exactly that). Blocks of 1024 are summed in double (fast) and
    // the block sums in long double, so rounding does not grow with n.
    double lo = values[0];
    double hi = values[0];
    for (double v : values) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    const auto count = static_cast<long double>(n);
    const long double mean = blocked_sum(values, [](double v) { return v; }) / count;
    const auto mean_d = static_cast<double>(mean);
    const long double squared_deviations =
        blocked_sum(values, [mean_d](double v) { return (v - mean_d) * (v - mean_d); });
    const long double squares = blocked_sum(values, [](double v) { return v * v; });

    Summary s;
    s.count = n;
    s.mean = static_cast<double>(mean);
    s.stddev = n > 1 ? static_cast<double>(std::sqrt(squared_deviations / (count - 1))) : nan;
    s.min = lo;
    s.max = hi;
    s.peak_to_peak = hi - lo;
    s.rms = static_cast<double>(std::sqrt(squares / count));
    s.stddev_ci95 = stddev_interval(s.stddev, n, 0.95);

    s.median = median_in_place(values);
    s.robust_stddev = mad_to_sigma * median_abs_deviation_in_place(values, s.median);

    for (double& v : values) {
        v = std::abs(v);
    }
    static constexpr double qs[] = {0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};
    const auto p = quantiles_in_place(values, qs);
    s.abs_percentiles = {p[0], p[1], p[2], p[3], p[4], p[5]};
    return s;
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
