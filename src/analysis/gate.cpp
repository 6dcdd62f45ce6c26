// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/gate.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "gate_evidence.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::analysis {

namespace {

// A limit can only be judged on a number: NaN or infinity is bad input, never a pass (nor a
// silent failure that looks like a regression).
void require_number(double value, const RunAnalysis& run, const std::string& what) {
    if (std::isfinite(value)) {
        return;
    }
    if (run.saved) {
        throw core::InputError(fmt::format(
            "{}: run {} has no {} (the summary does not hold it: absent or null, not 0); a gate "
            "cannot judge it: gate the capture, or save it again with this ppsbench",
            run.input(), run.saved->index, what));
    }
    throw core::InputError(
        fmt::format("{} has no {} (the figure is not a number); a gate cannot judge it: use a "
                    "capture with pulses or a summary saved by 'ppsbench report --format json'",
                    run.input(), what));
}

void require_pulses(const RunAnalysis& run, std::uint64_t min_pulses, const char* role) {
    if (run.stats.pulses < min_pulses) {
        throw core::InputError(fmt::format(
            "the {} run {} has {} pulse{}, fewer than the {} a gate needs to judge a limit; "
            "capture longer (or set --min-pulses, see docs/compare-and-gate.md)",
            role, run.input(), run.stats.pulses, run.stats.pulses == 1 ? "" : "s", min_pulses));
    }
}

GateCheck absolute_check(const RunAnalysis& run, const MetricLimit& limit,
                         std::uint64_t min_pairs) {
    detail::require_evidence(run, limit);
    const double value = limit.metric.value(run);
    if (!std::isfinite(value) && !limit.metric.when_missing.empty()) {
        throw core::InputError(fmt::format("{} {}", run.input(), limit.metric.when_missing));
    }
    require_number(value, run, limit.what);
    if (detail::is_bias_figure(limit.metric)) {
        detail::require_bias_pairs(run, min_pairs, "the limit on the " + limit.what);
    }
    GateCheck check;
    check.basis = detail::chrony_basis(run, limit);
    check.what = limit.what;
    check.quantity = limit.metric.quantity;
    check.value = value;
    check.limit = limit.limit;
    if (limit.bound == MetricLimit::Bound::lower) {
        check.bound = GateCheck::Bound::lower;
        check.measured = value;
        check.failed = !(value >= limit.limit);
    } else {
        // A signed figure is bounded on both sides: a mean of −50 µs is as far off as +50 µs.
        check.bound =
            is_signed(limit.metric) ? GateCheck::Bound::magnitude : GateCheck::Bound::upper;
        check.measured = check.bound == GateCheck::Bound::magnitude ? std::fabs(value) : value;
        check.failed = !(check.measured <= limit.limit);
    }
    return check;
}

GateCheck ratio_check(const RunAnalysis& baseline, const RunAnalysis& current,
                      const GateLimits& limits) {
    GateCheck check;
    check.kind = GateCheck::Kind::sigma_ratio;
    check.what = baseline.label;
    check.ratio = sigma_ratio(current, baseline, limits.confidence);
    check.measured = check.ratio.ratio;
    check.limit = *limits.max_ratio;
    check.sigma_ns = current.stats.headline().stddev;
    check.baseline_sigma_ns = baseline.stats.headline().stddev;
    const auto ci = check.ratio.conservative();
    if (!std::isfinite(ci.lo) || !std::isfinite(ci.hi) || !std::isfinite(check.measured)) {
        throw core::InputError(fmt::format(
            "the σ ratio of {} to {} has no confidence interval, so --max-ratio cannot be "
            "judged; capture longer",
            current.input(), baseline.input()));
    }
    // Fail only when even the low end of the interval is above the limit.
    check.failed = ci.lo > check.limit;
    return check;
}

const Bias& require_bias(const RunAnalysis& run) {
    if (!run.bias || run.bias->pairs == 0) {
        throw core::UsageError(fmt::format(
            "--max-bias-growth: {} has no bias against a hardware reference; capture it in a "
            "two-source run with one ('ppsbench run --source ptp:/dev/ptp0 --source "
            "pps:/dev/pps0') and gate the PPS path's file",
            run.input()));
    }
    return *run.bias;
}

GateCheck bias_growth_check(const RunAnalysis& baseline, const RunAnalysis& current, double limit,
                            std::uint64_t min_pairs) {
    const Bias& now = require_bias(current);
    const Bias& before = require_bias(baseline);
    detail::require_same_cadence(baseline, current, "--max-bias-growth");
    detail::require_bias_pairs(current, min_pairs, "--max-bias-growth");
    detail::require_bias_pairs(baseline, min_pairs, "--max-bias-growth");
    GateCheck check;
    check.kind = GateCheck::Kind::bias_growth;
    check.what = baseline.label;
    check.bias_median_ns = now.median_ns;
    check.baseline_bias_median_ns = before.median_ns;
    check.measured = now.median_ns - before.median_ns;
    check.limit = limit;
    check.growth_interval = {now.median_interval.lo - before.median_interval.hi,
                             now.median_interval.hi - before.median_interval.lo};
    if (!std::isfinite(check.growth_interval.lo) || !std::isfinite(check.measured)) {
        throw core::InputError(fmt::format(
            "the bias growth of {} over {} has no confidence interval, so --max-bias-growth "
            "cannot be judged; capture longer",
            current.input(), baseline.input()));
    }
    // Two-sided: a calibrated offset is wrong as soon as the lateness moves either way (a
    // kernel that timestamps earlier leaves the clock as far off as one that is later).
    check.failed = check.growth_interval.lo > limit || check.growth_interval.hi < -limit;
    return check;
}

}  // namespace

bool GateResult::failed() const {
    return std::any_of(checks.begin(), checks.end(), [](const auto& c) { return c.failed; });
}

GateResult evaluate_gate(const RunAnalysis* baseline, const RunAnalysis& current,
                         const GateLimits& limits) {
    GateResult result;
    const auto& headline = current.stats.headline();
    require_pulses(current, limits.min_pulses, "current");
    if (baseline != nullptr) {
        require_pulses(*baseline, limits.min_pulses, "baseline");
    }
    if (limits.max_ratio) {
        if (baseline == nullptr) {
            throw core::UsageError("--max-ratio needs --baseline FILE");
        }
        require_number(headline.stddev, current, "σ");
        require_number(baseline->stats.headline().stddev, *baseline, "σ");
        require_ratio_baseline(*baseline);
        detail::require_same_cadence(*baseline, current, "--max-ratio");
        result.checks.push_back(ratio_check(*baseline, current, limits));
    }
    if (limits.max_bias_growth_ns) {
        if (baseline == nullptr) {
            throw core::UsageError("--max-bias-growth needs --baseline FILE");
        }
        result.checks.push_back(
            bias_growth_check(*baseline, current, *limits.max_bias_growth_ns, limits.min_pulses));
    }
    for (const auto& limit : limits.maxima) {
        result.checks.push_back(absolute_check(current, limit, limits.min_pulses));
    }
    for (const auto& limit : limits.minima) {
        result.checks.push_back(absolute_check(current, limit, limits.min_pulses));
    }
    return result;
}

}  // namespace ppsbench::analysis
