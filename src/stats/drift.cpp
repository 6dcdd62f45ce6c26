// SPDX-License-Identifier: GPL-2.0-or-later
#include "drift.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "all_within.hpp"
#include "order_statistics.hpp"
#include "ppsbench/stats/quantile.hpp"

namespace ppsbench::stats::detail {

namespace {

// From 32 pulses the quarters' medians (robust to outliers); below, quarters of under 8 pulses
// make poor medians, and the least-squares slope's interval judges instead (short_run_drift).
constexpr std::size_t fewest_pulses = 32;

// Student's t at a two-sided 1e-3 (its 0.9995 quantile) for 1 … 29 degrees of freedom, the
// residual freedom of 3 … 31 pulses: a disciplined clock is called drifting once in a thousand
// short runs, and then only when the slope also exceeds free_running_bound. Checked against the
// t density integrated numerically (tests/stats/short_drift_test.cpp).
constexpr std::array<double, 29> t_two_sided_1e3_table = {
    636.619, 31.599, 12.924, 8.610, 6.869, 5.959, 5.408, 5.041, 4.781, 4.587,
    4.437,   4.318,  4.221,  4.140, 4.073, 4.015, 3.965, 3.922, 3.883, 3.850,
    3.819,   3.792,  3.768,  3.745, 3.725, 3.707, 3.690, 3.674, 3.659};

// The least-squares slope of the phase against the pulse numbers, per period, and the smallest
// slope the t test would call a drift on this scatter (both ratios: 1e-6 is 1 ppm).
template <typename T>
DriftJudgement short_run_drift_of(std::span<const T> phase_ns, const PulseIndex& index,
                                  std::int64_t period_ns) {
    DriftJudgement d;
    const std::size_t n = phase_ns.size();
    if (n < fewest_to_judge || n >= fewest_pulses) {
        return d;
    }
    double k_mean = 0;
    double y_mean = 0;
    for (std::size_t i = 0; i < n; ++i) {
        k_mean += static_cast<double>(index.at(i));
        y_mean += static_cast<double>(phase_ns[i]);
    }
    k_mean /= static_cast<double>(n);
    y_mean /= static_cast<double>(n);
    double sxx = 0;
    double sxy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double dk = static_cast<double>(index.at(i)) - k_mean;
        sxx += dk * dk;
        sxy += dk * (static_cast<double>(phase_ns[i]) - y_mean);
    }
    if (sxx <= 0) {
        return d;
    }
    const double slope = sxy / sxx;
    double ssr = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double dk = static_cast<double>(index.at(i)) - k_mean;
        const double r = static_cast<double>(phase_ns[i]) - y_mean - slope * dk;
        ssr += r * r;
    }
    const double standard_error = std::sqrt(ssr / static_cast<double>(n - 2) / sxx);
    const auto p = static_cast<double>(period_ns);
    d.judged = true;
    d.slope = slope / p;
    d.smallest_detectable = t_two_sided_1e3_table[n - 3] * standard_error / p;
    return d;
}

// The periods between the middles of the first and last quarters of `quarter` pulses each: the
// difference of the medians of their pulse numbers.
double quarter_periods(const PulseIndex& index, std::size_t n, std::size_t quarter) {
    const auto same = [](double v) { return v; };
    const auto median_k = [&](std::size_t first) {
        if (index.ascending_between(first, first + quarter)) {
            // Already in order: the middle pulses' numbers, as a sort would place them.
            const double upper = static_cast<double>(index.at(first + quarter / 2));
            return quarter % 2 == 1
                       ? upper
                       : (static_cast<double>(index.at(first + quarter / 2 - 1)) + upper) / 2.0;
        }
        const auto visit = [&](auto f) {
            index.for_each_between(first, first + quarter, [&f](std::size_t, std::int64_t k) {
                f(static_cast<double>(k));
            });
        };
        std::vector<double> sample;
        for (std::size_t i = first; i < first + quarter;
             i += std::max<std::size_t>(1, quarter / 8192)) {
            sample.push_back(static_cast<double>(index.at(i)));
        }
        return visited_median(visit, quarter, std::move(sample), same);
    };
    return median_k(n - quarter) - median_k(0);
}

// The drift of the phase per period, from the medians of its first and last quarters (robust
// to outliers, and to the noise: at 2 µs of jitter over 300 pulses it is known to 0.02 ppm).
// The medians are selected in place: copies of the quarters and their pulse numbers were the
// report's peak memory, 9 bytes a pulse beside the phase buffer.
template <typename T>
DriftJudgement judged_drift_of(std::span<const T> phase_ns, const PulseIndex& index,
                               std::int64_t period_ns) {
    const std::size_t n = phase_ns.size();
    if (n < fewest_pulses) {
        return short_run_drift_of(phase_ns, index, period_ns);
    }
    const std::size_t quarter = n / 4;
    const std::span<const T> early = phase_ns.first(quarter);
    const std::span<const T> late = phase_ns.last(quarter);
    const auto same = [](double v) { return v; };
    const double periods = quarter_periods(index, n, quarter);
    if (periods <= 0) {
        return {};
    }
    const auto median = [&](std::span<const T> values, auto map) {
        const auto visit = [values](auto f) {
            for (const T v : values) {
                f(static_cast<double>(v));
            }
        };
        // 8 192 values bracket a median well enough; sorting the summaries' 65 536 costs more
        // than the passes it saves here.
        std::vector<double> sample;
        const std::size_t stride = std::max<std::size_t>(1, values.size() / 8192);
        for (std::size_t i = 0; i < values.size(); i += stride) {
            sample.push_back(map(static_cast<double>(values[i])));
        }
        return visited_median(visit, values.size(), std::move(sample), map);
    };
    const double early_median = median(early, same);
    const double change = median(late, same) - early_median;
    // Only a drift the jitter cannot explain: each quarter's median is uncertain by about
    // 1.25·σ/√(n/4), so 50 pulses at 7 µs could fake 2 ppm over 2.5 s. Five standard errors.
    const double scale = mad_to_sigma * median(early, [early_median](double v) {
                             return std::abs(v - early_median);
                         });
    const double noise = 1.2533 * scale * std::sqrt(2.0 / static_cast<double>(quarter));
    const double per_ratio = periods * static_cast<double>(period_ns);
    return {true, change / per_ratio, 5 * noise / per_ratio};
}

template <typename T>
double drift_of(std::span<const T> phase_ns, const PulseIndex& index, std::int64_t period_ns) {
    const DriftJudgement d = judged_drift_of(phase_ns, index, period_ns);
    return d.judged && std::abs(d.slope) > d.smallest_detectable ? d.slope : 0;
}

template <typename T>
bool drift_at_most_of(std::span<const T> phase_ns, const PulseIndex& index, std::int64_t period_ns,
                      double limit) {
    const std::size_t n = phase_ns.size();
    if (n < fewest_to_judge) {
        return true;
    }
    if (n < fewest_pulses) {
        return false;  // the quarters are too short to settle anything: phase_drift() decides
    }
    const std::size_t quarter = n / 4;
    const double periods = quarter_periods(index, n, quarter);
    if (periods <= 0) {
        return true;
    }
    // Both medians lie within `reach` of the centre if every value of both quarters does; then
    // they differ by at most 2·reach, half of what `limit` allows (the other half covers the
    // roundings of the division by the periods and P, some 1e-16 of it).
    const double reach = 0.25 * limit * periods * static_cast<double>(period_ns);
    const std::span<const T> early = phase_ns.first(quarter);
    std::vector<double> sample;
    for (std::size_t i = 0; i < quarter; i += std::max<std::size_t>(1, quarter / 32)) {
        sample.push_back(static_cast<double>(early[i]));
    }
    const double centre = median_in_place(sample);
    return all_within(early, centre - reach, centre + reach) &&
           all_within(phase_ns.last(quarter), centre - reach, centre + reach);
}

}  // namespace

double t_two_sided_1e3(std::size_t degrees_of_freedom) {
    return t_two_sided_1e3_table.at(degrees_of_freedom - 1);
}

DriftJudgement short_run_drift(std::span<const double> phase_ns, const PulseIndex& index,
                               std::int64_t period_ns) {
    return short_run_drift_of(phase_ns, index, period_ns);
}

DriftJudgement short_run_drift(std::span<const std::int32_t> phase_ns, const PulseIndex& index,
                               std::int64_t period_ns) {
    return short_run_drift_of(phase_ns, index, period_ns);
}

DriftJudgement judge_drift(std::span<const double> phase_ns, const PulseIndex& index,
                           std::int64_t period_ns) {
    return judged_drift_of(phase_ns, index, period_ns);
}

DriftJudgement judge_drift(std::span<const std::int32_t> phase_ns, const PulseIndex& index,
                           std::int64_t period_ns) {
    return judged_drift_of(phase_ns, index, period_ns);
}

double phase_drift(std::span<const double> phase_ns, const PulseIndex& index,
                   std::int64_t period_ns) {
    return drift_of(phase_ns, index, period_ns);
}

double phase_drift(std::span<const std::int32_t> phase_ns, const PulseIndex& index,
                   std::int64_t period_ns) {
    return drift_of(phase_ns, index, period_ns);
}

bool drift_at_most(std::span<const double> phase_ns, const PulseIndex& index,
                   std::int64_t period_ns, double limit) {
    return drift_at_most_of(phase_ns, index, period_ns, limit);
}

bool drift_at_most(std::span<const std::int32_t> phase_ns, const PulseIndex& index,
                   std::int64_t period_ns, double limit) {
    return drift_at_most_of(phase_ns, index, period_ns, limit);
}

}  // namespace ppsbench::stats::detail
