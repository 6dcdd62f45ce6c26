// SPDX-License-Identifier: GPL-2.0-or-later
// Limits as typed (`--max p99=10us`, `--min bias_median=-1us`): which metric, the limit in its
// unit, and which side it bounds. The gate that applies them is gate.cpp.
#include <fmt/format.h>
#include <charconv>
#include <cmath>

#include "ppsbench/analysis/gate.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/option_value.hpp"

namespace ppsbench::analysis {

namespace {

// A time limit: a duration with its unit, negative only where the caller allows it (a lower
// bound of a signed figure). parse_duration() itself takes only positive durations.
double parse_time_limit(std::string_view text, std::string_view option, bool negative_allowed) {
    if (!text.empty() && text.front() == '-') {
        if (!negative_allowed) {
            return -1;  // refused by check_sign() with the reason
        }
        return -static_cast<double>(core::parse_duration(text.substr(1), option).count());
    }
    return static_cast<double>(core::parse_duration(text, option).count());
}

double parse_plain_limit(const Metric& metric, std::string_view text, std::string_view option) {
    double value = 0;
    const auto end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec == std::errc() && ptr == end && std::isfinite(value)) {
        return value;
    }
    throw core::UsageError(
        fmt::format("{}: '{}' is not a number; {} is a plain figure, e.g. {}=1e-9", option, text,
                    metric.key, metric.key));
}

// A limit in the metric's unit. Times need a unit, as every time option does (issue 12: "3"
// read as seconds passed a gate it should have failed).
double parse_limit(const Metric& metric, std::string_view text, std::string_view option,
                   MetricLimit::Bound bound) {
    switch (metric.quantity) {
        case Quantity::time_ns:
        case Quantity::signed_time_ns:
            return parse_time_limit(text, option,
                                    bound == MetricLimit::Bound::lower && is_signed(metric));
        case Quantity::count:
            return static_cast<double>(core::parse_count(text, option, 0, core::max_pulses));
        case Quantity::text:
            break;
        case Quantity::ratio:
        case Quantity::plain:
        case Quantity::percent:
            return parse_plain_limit(metric, text, option);
    }
    throw core::UsageError(
        fmt::format("{}: {} is text, not a figure a limit can bound", option, metric.key));
}

// No run can meet a negative upper bound (of a magnitude or of a figure that is never negative),
// and a negative lower bound of such a figure bounds nothing: both are typos, never a verdict.
void check_sign(const MetricLimit& limit, std::string_view text, std::string_view option) {
    if (!(limit.limit < 0) ||
        (limit.bound == MetricLimit::Bound::lower && is_signed(limit.metric))) {
        return;
    }
    if (limit.bound == MetricLimit::Bound::upper && is_signed(limit.metric)) {
        throw core::UsageError(fmt::format(
            "{}: '{}' is negative; --max bounds |{}| on both sides (--max {}={}), a lower bound "
            "of the signed figure is --min {}={}",
            option, text, limit.metric.key, limit.metric.key, text.substr(1), limit.metric.key,
            text));
    }
    throw core::UsageError(fmt::format("{}: '{}' is negative, and {} never is; use a limit from 0",
                                       option, text, limit.metric.key));
}

}  // namespace

bool is_signed(const Metric& metric) {
    return metric.quantity == Quantity::signed_time_ns;
}

MetricLimit metric_limit(std::string_view key, std::string_view limit, std::string_view option,
                         std::string what, MetricLimit::Bound bound) {
    MetricLimit result{find_metric(key, option), 0, std::move(what), bound};
    result.limit = parse_limit(result.metric, limit, option, bound);
    check_sign(result, limit, option);
    if (result.what.empty()) {
        result.what = result.metric.title;
    }
    return result;
}

MetricLimit parse_metric_limit(std::string_view text, std::string_view option,
                               MetricLimit::Bound bound) {
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
    return metric_limit(key, text.substr(equals + 1), fmt::format("{} {}", option, key), {}, bound);
}

}  // namespace ppsbench::analysis
