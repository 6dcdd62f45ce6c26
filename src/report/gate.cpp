#include "ppsbench/report/gate.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "ppsbench/core/error.hpp"
#include "ppsbench/report/comparison.hpp"
#include "ppsbench/report/units.hpp"

namespace ppsbench::report {

namespace {

GateCheck absolute_check(const std::string& what, double measured, double limit,
                         const std::string& unit_text) {
    GateCheck check;
    check.name = fmt::format("{} ≤ {}", what, unit_text);
    check.failed = !(measured <= limit);  // NaN fails: a figure that cannot be measured
    check.message = fmt::format("{} {} {} the limit {}", what, format_ns(measured),
                                check.failed ? "exceeds" : "is within", unit_text);
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
            throw core::UsageError("--max-ratio needs --baseline FILE");
        }
        const auto ratio = sigma_ratio(current, *baseline, limits.confidence);
        const auto ci = ratio.conservative();
        GateCheck check;
        check.name = fmt::format("σ ratio vs {} ≤ {:.2f}", baseline->label, *limits.max_ratio);
        // Fail only when even the low end of the interval is above the limit.
        check.failed =
            std::isfinite(ci.lo) ? ci.lo > *limits.max_ratio : ratio.ratio > *limits.max_ratio;
        check.message = fmt::format(
            "σ {} vs baseline {}: ratio {:.3f}, {:.0f} % CI {:.3f}–{:.3f} (F {:.3f}–{:.3f}, "
            "bootstrap {}); {}",
            format_ns(headline.stddev), format_ns(baseline->stats.headline().stddev), ratio.ratio,
            limits.confidence * 100, ci.lo, ci.hi, ratio.f_interval.lo, ratio.f_interval.hi,
            std::isfinite(ratio.bootstrap.lo)
                ? fmt::format("{:.3f}–{:.3f}", ratio.bootstrap.lo, ratio.bootstrap.hi)
                : std::string("n/a"),
            check.failed ? fmt::format("the lower bound {:.3f} is above {:.2f}: a regression",
                                       ci.lo, *limits.max_ratio)
            : ratio.ratio > *limits.max_ratio
                ? fmt::format("above {:.2f} but not statistically supported: pass",
                              *limits.max_ratio)
                : std::string("pass"));
        result.checks.push_back(std::move(check));
    }
    if (limits.max_sigma_ns) {
        result.checks.push_back(absolute_check("σ", headline.stddev, *limits.max_sigma_ns,
                                               format_ns(*limits.max_sigma_ns)));
    }
    if (limits.max_p2p_ns) {
        result.checks.push_back(absolute_check("peak-to-peak", headline.peak_to_peak,
                                               *limits.max_p2p_ns, format_ns(*limits.max_p2p_ns)));
    }
    if (limits.max_rms_offset_ns) {
        const auto end = current.chrony ? current.chrony->rms_offset_end_ns() : std::nullopt;
        if (!end) {
            throw core::UsageError(
                fmt::format("--max-rms-offset: {} has no synchronised chrony sample; capture with "
                            "'ppsbench run --chrony auto' while chronyd uses the PPS refclock",
                            current.file));
        }
        result.checks.push_back(absolute_check("chrony RMS offset", static_cast<double>(*end),
                                               *limits.max_rms_offset_ns,
                                               format_ns(*limits.max_rms_offset_ns)));
    }
    if (limits.max_missed) {
        GateCheck check;
        check.name = fmt::format("missed pulses ≤ {}", *limits.max_missed);
        check.failed = current.stats.missed_pulses > *limits.max_missed;
        check.message = fmt::format("{} missed pulses, limit {}", current.stats.missed_pulses,
                                    *limits.max_missed);
        result.checks.push_back(std::move(check));
    }
    return result;
}

std::string gate_summary(const GateResult& result, const RunAnalysis& current) {
    std::string text =
        fmt::format("gate: {}{}\n", current.label, current.simulated ? " (simulated)" : "");
    for (const auto& check : result.checks) {
        text += fmt::format("  [{}] {}: {}\n", check.failed ? "FAIL" : "pass", check.name,
                            check.message);
    }
    const auto failures = std::count_if(result.checks.begin(), result.checks.end(),
                                        [](const auto& c) { return c.failed; });
    text += fmt::format("gate: {} — {} of {} checks failed\n",
                        result.failed() ? "REGRESSION" : "PASS", failures, result.checks.size());
    return text;
}

std::vector<JunitCase> gate_junit(const GateResult& result) {
    std::vector<JunitCase> cases;
    for (const auto& check : result.checks) {
        cases.push_back({check.name, "ppsbench.gate", check.failed, check.message, check.message});
    }
    return cases;
}

}  // namespace ppsbench::report
