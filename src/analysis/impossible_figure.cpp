// SPDX-License-Identifier: GPL-2.0-or-later
// Figures that cannot be: a σ below zero or above the peak-to-peak, percentiles out of order.
// No analysis produces them; a saved summary edited by hand, or by another program, can (a
// summary with "stddev": -5 passed --max-sigma 3us), and a gate must never judge one.
#include "ppsbench/analysis/impossible_figure.hpp"

#include <fmt/format.h>
#include <cmath>

namespace ppsbench::analysis {

namespace {

// a ≤ b to rounding; an absent side (NaN) is not judged.
bool at_most(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) {
        return true;
    }
    return a <= b + 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

std::optional<std::string> broken(const stats::Summary& s, std::string_view name) {
    const auto why = [&](std::string text) {
        return std::optional<std::string>(fmt::format("{}: {}", name, text));
    };
    const std::pair<const char*, double> never_negative[] = {
        {"stddev", s.stddev},
        {"robust_stddev", s.robust_stddev},
        {"rms", s.rms},
        {"peak_to_peak", s.peak_to_peak},
        {"abs_percentiles.p50", s.abs_percentiles.p50}};
    for (const auto& [key, value] : never_negative) {
        if (!at_most(0, value)) {
            return why(fmt::format("{} {} is negative", key, value));
        }
    }
    if (!at_most(s.stddev, s.peak_to_peak)) {
        return why(
            fmt::format("stddev {} is larger than peak_to_peak {}", s.stddev, s.peak_to_peak));
    }
    if (!at_most(s.peak_to_peak, s.max - s.min) || !at_most(s.max - s.min, s.peak_to_peak)) {
        return why(fmt::format("peak_to_peak {} is not max − min ({} − {})", s.peak_to_peak, s.max,
                               s.min));
    }
    if (!at_most(s.min, s.median) || !at_most(s.median, s.max) || !at_most(s.min, s.mean) ||
        !at_most(s.mean, s.max)) {
        return why(fmt::format("min {}, median {}, mean {} and max {} are out of order", s.min,
                               s.median, s.mean, s.max));
    }
    if (!at_most(std::fabs(s.mean), s.rms)) {
        return why(fmt::format("|mean| {} is larger than rms {}", std::fabs(s.mean), s.rms));
    }
    const auto& p = s.abs_percentiles;
    const double order[] = {p.p50, p.p90, p.p99, p.p99_9, p.p99_99, p.max};
    double below = std::nan("");  // the last percentile present
    for (const double value : order) {
        if (std::isnan(value)) {
            continue;
        }
        const bool ordered = at_most(below, value);
        below = value;
        if (!ordered) {
            return why(
                fmt::format("abs_percentiles are out of order (p50 {}, p90 {}, p99 {}, "
                            "p99.9 {}, p99.99 {}, max {})",
                            p.p50, p.p90, p.p99, p.p99_9, p.p99_99, p.max));
        }
    }
    if (!at_most(s.stddev_ci95.lo, s.stddev_ci95.hi)) {
        return why(fmt::format("stddev_ci95 [{}, {}] is out of order", s.stddev_ci95.lo,
                               s.stddev_ci95.hi));
    }
    return std::nullopt;
}

std::optional<std::string> broken(const stats::Stability& s) {
    for (std::size_t i = 0; i < s.tau_s.size(); ++i) {
        if (!(s.tau_s[i] > 0) || (i > 0 && !(s.tau_s[i] > s.tau_s[i - 1]))) {
            return fmt::format("stability: tau_s {} is not a positive, increasing τ", s.tau_s[i]);
        }
    }
    const std::pair<const char*, const std::vector<double>*> figures[] = {
        {"adev", &s.adev}, {"mdev", &s.mdev}, {"tdev_s", &s.tdev_s}, {"mtie_s", &s.mtie_s}};
    for (const auto& [key, values] : figures) {
        for (const double value : *values) {
            if (!at_most(0, value)) {
                return fmt::format("stability: {} {} is negative", key, value);
            }
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> impossible_figure(const stats::RunStatistics& stats) {
    if (stats.offset_ns) {
        if (auto why = broken(*stats.offset_ns, "offset_ns")) {
            return why;
        }
    }
    if (stats.offset_ns_without_outliers) {
        if (auto why = broken(*stats.offset_ns_without_outliers, "offset_ns without outliers")) {
            return why;
        }
    }
    if (auto why = broken(stats.detrended_ns, "detrended_ns")) {
        return why;
    }
    if (auto why = broken(stats.detrended_ns_without_outliers, "detrended_ns without outliers")) {
        return why;
    }
    if (auto why = broken(stats.period_jitter_ns, "period_jitter_ns")) {
        return why;
    }
    if (stats.stability) {
        return broken(*stats.stability);
    }
    return std::nullopt;
}

}  // namespace ppsbench::analysis
