#include "ppsbench/stats/events.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ppsbench/stats/quantile.hpp"

namespace ppsbench::stats {

namespace {

// Robust σ with the mean-absolute-deviation fallback described in events.hpp.
double robust_scale(std::span<const double> values, double center) {
    std::vector<double> scratch(values.begin(), values.end());
    const double s = robust_stddev_in_place(scratch, center);
    if (s > 0.0) {
        return s;
    }
    long double sum = 0;
    for (double v : values) {
        sum += std::abs(v - center);
    }
    return 1.2533 * static_cast<double>(sum / static_cast<long double>(values.size()));
}

double median_of(std::span<const double> values) {
    std::vector<double> scratch(values.begin(), values.end());
    return median_in_place(scratch);
}

}  // namespace

Outliers find_outliers(std::span<const double> values, double k, double median,
                       double robust_stddev) {
    Outliers result;
    if (values.empty()) {
        return result;
    }
    result.center = median;
    result.scale = robust_stddev > 0.0 ? robust_stddev : robust_scale(values, median);
    result.threshold = k * result.scale;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (std::abs(values[i] - result.center) > result.threshold) {
            result.indices.push_back(i);
        }
    }
    return result;
}

std::vector<Step> find_steps(std::span<const double> phase_ns, double k, std::size_t window) {
    constexpr std::size_t min_side = 5;
    std::vector<Step> steps;
    const std::size_t n = phase_ns.size();
    if (n < 2 * min_side) {
        return steps;
    }
    // diffs[j] = phase[j + 1] − phase[j], computed where needed rather than stored (80 MB at
    // 10 M pulses).
    auto diff = [phase_ns](std::size_t j) { return phase_ns[j + 1] - phase_ns[j]; };
    // Drift per sample (frequency offset) and noise scale from an even sample of the
    // differences (the values even_sample() would pick): auxiliary estimates, so exactness
    // over millions of values buys nothing.
    constexpr std::size_t max_sample = 65536;
    const std::size_t diff_count = n - 1;
    std::vector<double> sample;
    sample.reserve(std::min(diff_count, max_sample));
    if (diff_count <= max_sample) {
        for (std::size_t j = 0; j < diff_count; ++j) {
            sample.push_back(diff(j));
        }
    } else {
        for (std::size_t i = 0; i < max_sample; ++i) {
            sample.push_back(diff(i * diff_count / max_sample));
        }
    }
    const double slope = median_of(sample);
    const double diff_scale = robust_scale(sample, slope);
    // White phase noise of σ gives differences of σ·√2.
    const double noise = diff_scale / std::sqrt(2.0);
    const double threshold = k * noise;

    std::size_t segment_start = 0;
    std::vector<double> before;
    std::vector<double> after;
    for (std::size_t i = min_side; i + min_side <= n; ++i) {
        if (!(std::abs(diff(i - 1) - slope) > k * diff_scale)) {
            continue;
        }
        const std::size_t first = std::max(segment_start, i >= window ? i - window : 0);
        const std::size_t last = std::min(n, i + window);
        if (i - first < min_side || last - i < min_side) {
            continue;
        }
        before.assign(phase_ns.begin() + static_cast<std::ptrdiff_t>(first),
                      phase_ns.begin() + static_cast<std::ptrdiff_t>(i));
        after.assign(phase_ns.begin() + static_cast<std::ptrdiff_t>(i),
                     phase_ns.begin() + static_cast<std::ptrdiff_t>(last));
        // The two medians sit at the windows' centres, (|after| + |before|)/2 samples apart.
        const double drift = slope * static_cast<double>(after.size() + before.size()) / 2.0;
        const double size = median_in_place(after) - median_in_place(before) - drift;
        if (std::abs(size) > threshold && std::abs(size) > 0.0) {
            steps.push_back({i, size});
            segment_start = i;
        }
    }
    return steps;
}

void remove_steps(std::span<double> phase_ns, std::span<const Step> steps) {
    double shift = 0;
    std::size_t next = 0;
    for (std::size_t i = 0; i < phase_ns.size(); ++i) {
        while (next < steps.size() && steps[next].index == i) {
            shift += steps[next].size_ns;
            ++next;
        }
        phase_ns[i] -= shift;
    }
}

}  // namespace ppsbench::stats
