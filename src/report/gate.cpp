#include "ppsbench/report/gate.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "ppsbench/core/error.hpp"
#include "ppsbench/report/comparison.hpp"
#include "ppsbench/report/units.hpp"

namespace ppsbench::report {

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

GateCheck absolute_check(const RunAnalysis& run, const std::string& what, double measured,
                         double limit, const std::string& unit_text) {
    require_number(measured, run, what);
    GateCheck check;
    check.name = fmt::format("{} ≤ {}", what, unit_text);
    check.failed = !(measured <= limit);
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
        const auto ratio = sigma_ratio(current, *baseline, limits.confidence);
        const auto ci = ratio.conservative();
        if (!std::isfinite(ci.lo) || !std::isfinite(ci.hi) || !std::isfinite(ratio.ratio)) {
            throw core::InputError(fmt::format(
                "gate: the σ ratio of {} to {} has no confidence interval, so --max-ratio "
                "cannot be judged; capture longer",
                current.file, baseline->file));
        }
        GateCheck check;
        check.name = fmt::format("σ ratio vs {} ≤ {:.2f}", baseline->label, *limits.max_ratio);
        // Fail only when even the low end of the interval is above the limit.
        check.failed = ci.lo > *limits.max_ratio;
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
        result.checks.push_back(absolute_check(current, "σ", headline.stddev, *limits.max_sigma_ns,
                                               format_ns(*limits.max_sigma_ns)));
    }
    if (limits.max_p2p_ns) {
        result.checks.push_back(absolute_check(current, "peak-to-peak", headline.peak_to_peak,
                                               *limits.max_p2p_ns, format_ns(*limits.max_p2p_ns)));
    }
    if (limits.max_rms_offset_ns) {
        const auto end = current.chrony ? current.chrony->rms_offset_end_ns() : std::nullopt;
        if (!end) {
            throw core::UsageError(fmt::format(
                "gate: --max-rms-offset: {} has no synchronised chrony sample; capture with "
                "'ppsbench run --chrony auto' while chronyd uses the PPS refclock",
                current.file));
        }
        result.checks.push_back(absolute_check(current, "chrony RMS offset",
                                               static_cast<double>(*end), *limits.max_rms_offset_ns,
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
