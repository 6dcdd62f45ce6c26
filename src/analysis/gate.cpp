#include "ppsbench/analysis/gate.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <cmath>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/option_value.hpp"

namespace ppsbench::analysis {

namespace {

// A limit can only be judged on a number: NaN or infinity is bad input, never a pass (nor a
// silent failure that looks like a regression).
void require_number(double value, const RunAnalysis& run, const std::string& what) {
    if (!std::isfinite(value)) {
        throw core::InputError(
            fmt::format("{} has no {} (the figure is not a number); a gate cannot judge it: use a "
                        "capture with pulses or a summary saved by 'ppsbench report --format json'",
                        run.file, what));
    }
}

void require_pulses(const RunAnalysis& run, std::uint64_t min_pulses, const char* role) {
    if (run.stats.pulses < min_pulses) {
        throw core::InputError(fmt::format(
            "the {} run {} has {} pulse{}, fewer than the {} a gate needs to judge a limit; "
            "capture longer (or set --min-pulses, see docs/compare-and-gate.md)",
            role, run.file, run.stats.pulses, run.stats.pulses == 1 ? "" : "s", min_pulses));
    }
}

GateCheck absolute_check(const RunAnalysis& run, const MetricLimit& limit) {
    const double measured = limit.metric.value(run);
    if (!std::isfinite(measured) && !limit.metric.when_missing.empty()) {
        throw core::InputError(fmt::format("{} {}", run.file, limit.metric.when_missing));
    }
    require_number(measured, run, limit.what);
    GateCheck check;
    check.what = limit.what;
    check.quantity = limit.metric.quantity;
    check.measured = measured;
    check.limit = limit.limit;
    check.failed = !(measured <= limit.limit);
    return check;
}

// A limit in the metric's unit. Times need a unit, as every time option does (issue 12: "3"
// read as seconds passed a gate it should have failed).
double parse_limit(const Metric& metric, std::string_view text, std::string_view option) {
    switch (metric.quantity) {
        case Quantity::time_ns:
        case Quantity::signed_time_ns:
            return static_cast<double>(core::parse_duration(text, option).count());
        case Quantity::count:
            return static_cast<double>(core::parse_count(text, option, 0, core::max_pulses));
        case Quantity::text:
            break;
        case Quantity::ratio:
        case Quantity::plain:
        case Quantity::percent: {
            double value = 0;
            const auto end = text.data() + text.size();
            const auto [ptr, ec] = std::from_chars(text.data(), end, value);
            if (ec == std::errc() && ptr == end && std::isfinite(value)) {
                return value;
            }
            throw core::UsageError(
                fmt::format("{}: '{}' is not a number; {} is a plain figure, "
                            "e.g. {}=1e-9",
                            option, text, metric.key, metric.key));
        }
    }
    throw core::UsageError(
        fmt::format("{}: {} is text, not a figure a limit can bound", option, metric.key));
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
            current.file, baseline.file));
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
            run.file));
    }
    return *run.bias;
}

GateCheck bias_growth_check(const RunAnalysis& baseline, const RunAnalysis& current, double limit) {
    const Bias& now = require_bias(current);
    const Bias& before = require_bias(baseline);
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
            current.file, baseline.file));
    }
    check.failed = check.growth_interval.lo > limit;
    return check;
}

}  // namespace

MetricLimit metric_limit(std::string_view key, std::string_view limit, std::string_view option,
                         std::string what) {
    MetricLimit result{find_metric(key, option), 0, std::move(what)};
    result.limit = parse_limit(result.metric, limit, option);
    if (result.what.empty()) {
        result.what = result.metric.title;
    }
    return result;
}

MetricLimit parse_metric_limit(std::string_view text, std::string_view option) {
    const auto equals = text.find('=');
    if (equals == std::string_view::npos || equals == 0 || equals + 1 == text.size()) {
        throw core::UsageError(
            fmt::format("{} '{}': write METRIC=LIMIT, e.g. {} p99=10us or {} missed=0 (metrics: "
                        "docs/metrics.md)",
                        option, text, option, option));
    }
    const auto key = text.substr(0, equals);
    find_metric(key, option);  // an unknown metric: named under the option, with a did-you-mean
    // A bad limit names the metric: "--max p99: '3' has no unit", not just "--max: ...".
    return metric_limit(key, text.substr(equals + 1), fmt::format("{} {}", option, key));
}

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
        if (!(baseline->stats.headline().stddev > 0)) {
            throw core::InputError(fmt::format(
                "the baseline {} has σ 0, so no ratio to it exists; use a baseline with "
                "jitter",
                baseline->file));
        }
        result.checks.push_back(ratio_check(*baseline, current, limits));
    }
    if (limits.max_bias_growth_ns) {
        if (baseline == nullptr) {
            throw core::UsageError("--max-bias-growth needs --baseline FILE");
        }
        result.checks.push_back(bias_growth_check(*baseline, current, *limits.max_bias_growth_ns));
    }
    for (const auto& limit : limits.maxima) {
        result.checks.push_back(absolute_check(current, limit));
    }
    return result;
}

}  // namespace ppsbench::analysis
