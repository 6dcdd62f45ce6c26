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

MissedPulses find_missed_pulses(std::span<const std::int64_t> timestamps_ns,
                                std::span<const std::uint64_t> sequences, double period_ns,
                                std::int64_t nominal_period_ns) {
    MissedPulses result;
    const bool have_sequences = sequences.size() == timestamps_ns.size();
    const double limit = 1.5 * static_cast<double>(nominal_period_ns);
    for (std::size_t i = 1; i < timestamps_ns.size(); ++i) {
        Gap gap{.index = i};
        const auto interval = static_cast<double>(timestamps_ns[i] - timestamps_ns[i - 1]);
        if (interval > limit) {
            const auto periods = std::llround(interval / period_ns);
            gap.missed_by_time = static_cast<std::uint64_t>(std::max<long long>(periods - 1, 1));
        }
        if (have_sequences && sequences[i] > sequences[i - 1]) {
            gap.missed_by_sequence = sequences[i] - sequences[i - 1] - 1;
        }
        gap.missed = std::max(gap.missed_by_time, gap.missed_by_sequence);
        if (gap.missed > 0) {
            result.total += gap.missed;
            result.by_time += gap.missed_by_time;
            result.by_sequence += gap.missed_by_sequence;
            result.gaps.push_back(gap);
        }
    }
    return result;
}

Outliers find_outliers(std::span<const double> values, double k) {
    if (values.empty()) {
        return {};
    }
    const double center = median_of(values);
    return find_outliers(values, k, center, robust_scale(values, center));
}

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
    std::vector<double> diffs(n - 1);
    for (std::size_t i = 1; i < n; ++i) {
        diffs[i - 1] = phase_ns[i] - phase_ns[i - 1];
    }
    // Drift per sample (frequency offset) and noise scale from an even sample of the
    // differences: auxiliary estimates, so exactness over millions of values buys nothing.
    const std::vector<double> sample = even_sample(diffs);
    const double slope = median_of(sample);
    const double diff_scale = robust_scale(sample, slope);
    // White phase noise of σ gives differences of σ·√2.
    const double noise = diff_scale / std::sqrt(2.0);
    const double threshold = k * noise;

    std::size_t segment_start = 0;
    std::vector<double> before;
    std::vector<double> after;
    for (std::size_t i = min_side; i + min_side <= n; ++i) {
        if (!(std::abs(diffs[i - 1] - slope) > k * diff_scale)) {
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
