// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/comparison.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/confidence.hpp"

namespace ppsbench::analysis {

namespace {

bool is_time(Quantity q) {
    return q == Quantity::time_ns;
}

}  // namespace

stats::Interval SigmaRatio::conservative() const {
    stats::Interval widest = f_interval;
    if (std::isfinite(bootstrap.lo)) {
        if (!std::isfinite(widest.lo)) {
            return bootstrap;
        }
        widest.lo = std::min(widest.lo, bootstrap.lo);
        widest.hi = std::max(widest.hi, bootstrap.hi);
    }
    return widest;
}

int SigmaRatio::direction() const {
    const auto ci = conservative();
    if (!std::isfinite(ci.lo)) {
        return 0;
    }
    if (ci.lo > 1.0) {
        return 1;
    }
    if (ci.hi < 1.0) {
        return -1;
    }
    return 0;
}

SigmaRatio sigma_ratio(const RunAnalysis& run, const RunAnalysis& baseline, double confidence,
                       std::uint64_t seed) {
    const auto& a = run.stats.headline();
    const auto& b = baseline.stats.headline();
    SigmaRatio r;
    r.confidence = confidence;
    r.ratio = a.stddev / b.stddev;
    r.f_interval = stats::stddev_ratio_f_interval(a.stddev, a.count, b.stddev, b.count, confidence);
    const auto* sa = run.stats.headline_series();
    const auto* sb = baseline.stats.headline_series();
    if (sa != nullptr && sb != nullptr) {
        stats::BootstrapOptions options;
        options.seed = seed;
        options.confidence = confidence;
        r.bootstrap = stats::stddev_ratio_bootstrap(*sa, *sb, options);
    }
    return r;
}

void require_ratio_baseline(const RunAnalysis& baseline) {
    const double sigma = baseline.stats.headline().stddev;
    if (std::isnan(sigma)) {
        throw core::InputError(fmt::format(
            "the baseline {} has no σ ({} pulse{}{}), so no ratio to it exists; use a baseline "
            "with at least 100 pulses",
            baseline.input(), baseline.stats.pulses, baseline.stats.pulses == 1 ? "" : "s",
            baseline.saved ? ", or a summary that does not hold it" : ""));
    }
    if (!(sigma > 0) || !std::isfinite(sigma)) {
        throw core::InputError(fmt::format(
            "the baseline {} has σ {}, so no ratio to it exists; use a baseline "
            "with jitter",
            baseline.input(), sigma == 0 ? std::string("0") : fmt::format("{}", sigma)));
    }
}

Comparison compare(const RunAnalysis& baseline, const std::vector<RunAnalysis>& runs,
                   std::vector<Metric> metrics, double confidence) {
    require_ratio_baseline(baseline);
    Comparison comparison;
    comparison.baseline = &baseline;
    comparison.confidence = confidence;
    comparison.metrics = std::move(metrics);
    for (const auto& run : runs) {
        ComparedRun compared;
        compared.run = &run;
        compared.sigma = sigma_ratio(run, baseline, confidence);
        for (const auto& metric : comparison.metrics) {
            compared.ratios.push_back(is_time(metric.quantity)
                                          ? metric.value(run) / metric.value(baseline)
                                          : std::numeric_limits<double>::quiet_NaN());
        }
        comparison.runs.push_back(std::move(compared));
    }
    return comparison;
}

}  // namespace ppsbench::analysis
