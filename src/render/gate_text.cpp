// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/render/gate_text.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "ppsbench/render/html_page.hpp"
#include "ppsbench/render/run_tables.hpp"
#include "ppsbench/render/units.hpp"

namespace ppsbench::render {

namespace {

using analysis::GateCheck;

std::string ratio_message(const GateCheck& check) {
    const auto& ratio = check.ratio;
    const auto ci = ratio.conservative();
    return fmt::format(
        "σ {} vs baseline {}: ratio {:.3f}, {} % CI {:.3f}–{:.3f} (F {:.3f}–{:.3f}, "
        "bootstrap {}); {}",
        format_ns(check.sigma_ns), format_ns(check.baseline_sigma_ns), ratio.ratio,
        confidence_percent(ratio.confidence), ci.lo, ci.hi, ratio.f_interval.lo,
        ratio.f_interval.hi,
        std::isfinite(ratio.bootstrap.lo)
            ? fmt::format("{:.3f}–{:.3f}", ratio.bootstrap.lo, ratio.bootstrap.hi)
            : std::string("n/a"),
        check.failed ? fmt::format("the lower bound {:.3f} is above {}: a regression", ci.lo,
                                   ratio_limit_text(check.limit))
        : ratio.ratio > check.limit ? fmt::format("above {} but not statistically supported: pass",
                                                  ratio_limit_text(check.limit))
                                    : std::string("pass"));
}

std::string growth_message(const GateCheck& check) {
    return fmt::format(
        "median bias {} vs baseline {}: growth {}, 95 % CI {} to {}; {}",
        format_ns(check.bias_median_ns, true), format_ns(check.baseline_bias_median_ns, true),
        format_ns(check.measured, true), format_ns(check.growth_interval.lo, true),
        format_ns(check.growth_interval.hi, true),
        check.failed && check.growth_interval.lo > check.limit
            ? fmt::format("the lower bound is above {}: a regression", format_ns(check.limit))
        : check.failed
            ? fmt::format("the upper bound is below −{}: the bias moved (a calibrated offset "
                          "no longer fits)",
                          format_ns(check.limit))
        : std::abs(check.measured) > check.limit
            ? std::string("beyond the limit but not statistically supported: pass")
            : std::string("pass"));
}

}  // namespace

namespace {

// A limit or a measured value in the figure's own unit.
std::string format_value(analysis::Quantity quantity, double value) {
    switch (quantity) {
        case analysis::Quantity::time_ns:
        case analysis::Quantity::signed_time_ns:
            return format_ns(value);
        case analysis::Quantity::count:
            return fmt::format("{:.0f}", value);
        case analysis::Quantity::percent:
            return fmt::format("{:.1f} %", value);
        case analysis::Quantity::ratio:
        case analysis::Quantity::plain:
        case analysis::Quantity::text:
            break;
    }
    return fmt::format("{:.4g}", value);
}

}  // namespace

std::string check_name(const GateCheck& check) {
    if (check.kind == GateCheck::Kind::sigma_ratio) {
        return fmt::format("σ ratio vs {} ≤ {}", check.what, ratio_limit_text(check.limit));
    }
    if (check.kind == GateCheck::Kind::bias_growth) {
        return fmt::format("median bias change vs {} within ±{}", check.what,
                           format_ns(check.limit));
    }
    const auto limit = format_value(check.quantity, check.limit);
    switch (check.bound) {
        case GateCheck::Bound::magnitude:
            return fmt::format("|{}| ≤ {}", check.what, limit);
        case GateCheck::Bound::lower:
            return fmt::format("{} ≥ {}", check.what, limit);
        case GateCheck::Bound::upper:
            break;
    }
    return fmt::format("{} ≤ {}", check.what, limit);
}

namespace {

// A limit on one figure: "|mean| 50.0 µs > 1000 ns (mean -50.0 µs)", "3 missed pulses, limit 0".
std::string absolute_message(const GateCheck& check) {
    const auto measured = format_value(check.quantity, check.measured);
    const auto limit = format_value(check.quantity, check.limit);
    switch (check.bound) {
        case GateCheck::Bound::magnitude:
            return fmt::format("|{}| {} {} {} ({} {}): bounded on both sides", check.what, measured,
                               check.failed ? ">" : "≤", limit, check.what,
                               format_value(check.quantity, check.value));
        case GateCheck::Bound::lower:
            if (check.quantity == analysis::Quantity::count) {
                return fmt::format("{} {}, at least {}", measured, check.what, limit);
            }
            return fmt::format("{} {} {} {}", check.what, measured, check.failed ? "<" : "≥",
                               limit);
        case GateCheck::Bound::upper:
            break;
    }
    if (check.quantity == analysis::Quantity::count) {
        return fmt::format("{} {}, limit {}", measured, check.what, limit);
    }
    return fmt::format("{} {} {} the limit {}", check.what, measured,
                       check.failed ? "exceeds" : "is within", limit);
}

}  // namespace

std::string check_message(const GateCheck& check) {
    if (check.kind == GateCheck::Kind::sigma_ratio) {
        return ratio_message(check);
    }
    if (check.kind == GateCheck::Kind::bias_growth) {
        return growth_message(check);
    }
    // Text, JUnit and the page all say what the verdict stands on.
    return check.basis.empty() ? absolute_message(check)
                               : fmt::format("{} ({})", absolute_message(check), check.basis);
}

std::string gate_summary(const analysis::GateResult& result, const analysis::RunAnalysis& current) {
    std::string text =
        fmt::format("gate: {}{}\n", current.label, current.simulated ? " (simulated)" : "");
    for (const auto& check : result.checks) {
        text += fmt::format("  [{}] {}: {}\n", check.failed ? "FAIL" : "pass", check_name(check),
                            check_message(check));
    }
    const auto failures = std::count_if(result.checks.begin(), result.checks.end(),
                                        [](const auto& c) { return c.failed; });
    text += fmt::format("gate: {} — {} of {} checks failed\n",
                        result.failed() ? "REGRESSION" : "PASS", failures, result.checks.size());
    return text;
}

std::vector<JunitCase> gate_junit(const analysis::GateResult& result) {
    std::vector<JunitCase> cases;
    for (const auto& check : result.checks) {
        const std::string message = check_message(check);
        cases.push_back({check_name(check), "ppsbench.gate", check.failed, message, message});
    }
    return cases;
}

HtmlPage gate_page(const analysis::GateResult& result,
                   const std::vector<analysis::RunAnalysis>& runs) {
    HtmlPage page;
    page.title = "ppsbench gate";
    page.tables.push_back(runs_table(runs, default_metrics(runs)));
    page.tables.front().title = runs.size() > 1 ? "Baseline and current run" : "Current run";
    page.gate_failed = result.failed();
    for (const auto& check : result.checks) {
        page.checks.push_back({check_name(check), check_message(check), check.failed});
    }
    return page;
}

}  // namespace ppsbench::render
