#include "ppsbench/analysis/gate.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "ppsbench/core/error.hpp"

namespace ppsbench::analysis {

namespace {

// A limit can only be judged on a number: NaN or infinity is bad input, never a pass (nor a
// silent failure that looks like a regression).
void require_number(double value, const RunAnalysis& run, const std::string& what) {
    if (!std::isfinite(value)) {
        throw core::InputError(fmt::format(
            "gate: {} has no {} (the figure is not a number); a gate cannot judge it: use a "
            "capture with pulses or a summary saved by 'ppsbench report --format json'",
            run.file, what));
    }
}

void require_pulses(const RunAnalysis& run, std::uint64_t min_pulses, const char* role) {
    if (run.stats.pulses < min_pulses) {
        throw core::InputError(fmt::format(
            "gate: the {} run {} has {} pulse{}, fewer than the {} a gate needs to judge a limit; "
            "capture longer (or set --min-pulses, see docs/compare-and-gate.md)",
            role, run.file, run.stats.pulses, run.stats.pulses == 1 ? "" : "s", min_pulses));
    }
}

GateCheck absolute_check(const RunAnalysis& run, std::string what, double measured, double limit) {
    require_number(measured, run, what);
    GateCheck check;
    check.what = std::move(what);
    check.measured = measured;
    check.limit = limit;
    check.failed = !(measured <= limit);
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
            "gate: the σ ratio of {} to {} has no confidence interval, so --max-ratio cannot be "
            "judged; capture longer",
            current.file, baseline.file));
    }
    // Fail only when even the low end of the interval is above the limit.
    check.failed = ci.lo > check.limit;
    return check;
}

const Bias& require_bias(const RunAnalysis& run, const char* option) {
    if (!run.bias || run.bias->pairs == 0) {
        throw core::UsageError(fmt::format(
            "gate: {}: {} has no bias against a hardware reference; capture it in a two-source "
            "run with one, e.g. 'ppsbench run --source ptp:/dev/ptp0 --source pps:/dev/pps0', and "
            "gate the PPS path's file",
            option, run.file));
    }
    return *run.bias;
}

GateCheck bias_growth_check(const RunAnalysis& baseline, const RunAnalysis& current, double limit) {
    const Bias& now = require_bias(current, "--max-bias-growth");
    const Bias& before = require_bias(baseline, "--max-bias-growth");
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
        throw core::InputError(
            fmt::format("gate: the bias growth of {} over {} has no confidence interval, so "
                        "--max-bias-growth cannot be judged; capture longer",
                        current.file, baseline.file));
    }
    check.failed = check.growth_interval.lo > limit;
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
            throw core::UsageError("gate: --max-ratio needs --baseline FILE");
        }
        require_number(headline.stddev, current, "σ");
        require_number(baseline->stats.headline().stddev, *baseline, "σ");
        if (!(baseline->stats.headline().stddev > 0)) {
            throw core::InputError(fmt::format(
                "gate: the baseline {} has σ 0, so no ratio to it exists; use a baseline with "
                "jitter",
                baseline->file));
        }
        result.checks.push_back(ratio_check(*baseline, current, limits));
    }
    if (limits.max_sigma_ns) {
        result.checks.push_back(
            absolute_check(current, "σ", headline.stddev, *limits.max_sigma_ns));
    }
    if (limits.max_p2p_ns) {
        result.checks.push_back(
            absolute_check(current, "peak-to-peak", headline.peak_to_peak, *limits.max_p2p_ns));
    }
    if (limits.max_rms_offset_ns) {
        const auto end = current.chrony ? current.chrony->rms_offset_end_ns() : std::nullopt;
        if (!end) {
            throw core::UsageError(fmt::format(
                "gate: --max-rms-offset: {} has no synchronised chrony sample; capture with "
                "'ppsbench run --chrony auto' while chronyd uses the PPS refclock",
                current.file));
        }
        result.checks.push_back(absolute_check(
            current, "chrony RMS offset", static_cast<double>(*end), *limits.max_rms_offset_ns));
    }
    if (limits.max_bias_ns) {
        const Bias& bias = require_bias(current, "--max-bias");
        result.checks.push_back(
            absolute_check(current, "median bias", bias.median_ns, *limits.max_bias_ns));
    }
    if (limits.max_bias_growth_ns) {
        if (baseline == nullptr) {
            throw core::UsageError("gate: --max-bias-growth needs --baseline FILE");
        }
        result.checks.push_back(bias_growth_check(*baseline, current, *limits.max_bias_growth_ns));
    }
    if (limits.max_missed) {
        GateCheck check;
        check.kind = GateCheck::Kind::missed;
        check.what = "missed pulses";
        check.measured = static_cast<double>(current.stats.missed_pulses);
        check.limit = static_cast<double>(*limits.max_missed);
        check.failed = current.stats.missed_pulses > *limits.max_missed;
        result.checks.push_back(std::move(check));
    }
    return result;
}

}  // namespace ppsbench::analysis
