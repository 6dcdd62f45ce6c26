#include "ppsbench/analysis/gate.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "ppsbench/core/error.hpp"

namespace ppsbench::analysis {

namespace {

GateCheck absolute_check(std::string what, double measured, double limit) {
    GateCheck check;
    check.what = std::move(what);
    check.measured = measured;
    check.limit = limit;
    check.failed = !(measured <= limit);  // NaN fails: a figure that cannot be measured
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
    // Fail only when even the low end of the interval is above the limit.
    const auto ci = check.ratio.conservative();
    check.failed = std::isfinite(ci.lo) ? ci.lo > check.limit : check.measured > check.limit;
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
    if (limits.max_ratio) {
        if (baseline == nullptr) {
            throw core::UsageError("gate: --max-ratio needs --baseline FILE");
        }
        result.checks.push_back(ratio_check(*baseline, current, limits));
    }
    if (limits.max_sigma_ns) {
        result.checks.push_back(absolute_check("σ", headline.stddev, *limits.max_sigma_ns));
    }
    if (limits.max_p2p_ns) {
        result.checks.push_back(
            absolute_check("peak-to-peak", headline.peak_to_peak, *limits.max_p2p_ns));
    }
    if (limits.max_rms_offset_ns) {
        const auto end = current.chrony ? current.chrony->rms_offset_end_ns() : std::nullopt;
        if (!end) {
            throw core::UsageError(fmt::format(
                "gate: --max-rms-offset: {} has no synchronised chrony sample; capture with "
                "'ppsbench run --chrony auto' while chronyd uses the PPS refclock",
                current.file));
        }
        result.checks.push_back(absolute_check("chrony RMS offset", static_cast<double>(*end),
                                               *limits.max_rms_offset_ns));
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
