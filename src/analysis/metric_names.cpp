// SPDX-License-Identifier: GPL-2.0-or-later
// Metrics by name: the --metrics and --max lists, the adev@TAU family parsed from its name, the
// names --help lists, and the check that an asked-for τ was computed. The rows themselves are
// the registry's (metrics.cpp).
#include "ppsbench/analysis/metrics.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "metrics_detail.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/suggest.hpp"

namespace ppsbench::analysis {

namespace {

// The index of `tau_s` among the computed taus (within 1 %: they are τ0·2^k in doubles), or
// taus.size() when it is not one of them.
std::size_t tau_index(const std::vector<double>& taus, double tau_s) {
    for (std::size_t i = 0; i < taus.size(); ++i) {
        if (std::fabs(taus[i] / tau_s - 1) <= 0.01) {
            return i;
        }
    }
    return taus.size();
}

// "tdev@16s": a stability figure at one of the octave taus.
std::optional<Metric> stability_metric(std::string_view key, std::string_view option) {
    const auto at = key.find('@');
    if (at == std::string_view::npos) {
        return std::nullopt;
    }
    const std::string_view name = key.substr(0, at);
    const auto& figures = stability_figures();
    const auto figure = std::find_if(figures.begin(), figures.end(),
                                     [&](const StabilityFigure& f) { return f.name == name; });
    if (figure == figures.end()) {
        return std::nullopt;
    }
    const double tau_s =
        static_cast<double>(core::parse_duration(key.substr(at + 1), option).count()) / 1e9;
    return plain_metric(
        std::string(key), fmt::format("{} τ={}", name, key.substr(at + 1)),
        // A time carries its unit in its key, as every other ns column does: "mtie_at_16s_ns".
        fmt::format("{}_at_{}s{}", name, tau_s, figure->is_time ? "_ns" : ""),
        figure->is_time ? Quantity::time_ns : Quantity::plain,
        [pick = figure->values, tau_s, is_time = figure->is_time](const RunAnalysis& r) {
            if (!r.stats.stability) {
                return nan;
            }
            const auto& taus = r.stats.stability->tau_s;
            const auto& values = (*r.stats.stability).*pick;
            // Only the τ asked for (to rounding): a column titled τ=3s must not show the 4 s
            // value. check_taus_computed() refuses a τ that is not among the octave taus.
            const auto i = tau_index(taus, tau_s);
            return i < values.size() ? (is_time ? values[i] * 1e9 : values[i]) : nan;
        });
}

}  // namespace

std::string metric_names() {
    std::string names;
    for (const auto& m : all_metrics()) {
        names += (names.empty() ? "" : ", ") + m.key;
    }
    std::string parsed;
    for (const auto& f : stability_figures()) {
        parsed += fmt::format("{}@TAU, ", f.name);
    }
    parsed.resize(parsed.size() - 2);
    return fmt::format("{}, {} (e.g. tdev@16s)", names, parsed);
}

Metric find_metric(std::string_view key, std::string_view option) {
    for (const auto& metric : all_metrics()) {
        if (metric.key == key) {
            return metric;
        }
    }
    if (auto metric = stability_metric(key, option)) {
        return *metric;
    }
    // "tdve@16s" means "tdev@16s": match the name before '@' and keep the τ as typed.
    const auto at = key.find('@');
    std::vector<std::string> names;
    if (at == std::string_view::npos) {
        for (const auto& metric : all_metrics()) {
            names.push_back(metric.key);
        }
    } else {
        for (const auto& figure : stability_figures()) {
            names.push_back(std::string(figure.name) + std::string(key.substr(at)));
        }
    }
    throw core::UsageError(fmt::format("{}: unknown metric '{}'{}; known: {}", option, key,
                                       core::did_you_mean(key, names), metric_names()));
}

std::vector<Metric> parse_metrics(std::string_view list) {
    std::vector<Metric> metrics;
    while (!list.empty()) {
        const auto comma = list.find(',');
        const auto key = list.substr(0, comma);
        if (!key.empty()) {
            metrics.push_back(find_metric(key, "--metrics"));
        }
        list = comma == std::string_view::npos ? "" : list.substr(comma + 1);
    }
    if (metrics.empty()) {
        throw core::UsageError(
            fmt::format("--metrics: name at least one metric; known: {}", metric_names()));
    }
    return metrics;
}

void check_taus_computed(const std::vector<Metric>& metrics, const std::vector<RunAnalysis>& runs,
                         std::string_view option) {
    for (const auto& metric : metrics) {
        const auto at = metric.key.find('@');
        if (at == std::string::npos) {
            continue;
        }
        const double tau_s =
            static_cast<double>(core::parse_duration(metric.key.substr(at + 1), option).count()) /
            1e9;
        for (const auto& run : runs) {
            if (!run.stats.stability || run.stats.stability->tau_s.empty()) {
                continue;  // too short for any τ: its figures are "n/a", not a wrong τ
            }
            const auto& taus = run.stats.stability->tau_s;
            if (tau_index(taus, tau_s) < taus.size()) {
                continue;
            }
            std::string computed;
            for (const double tau : taus) {
                computed += (computed.empty() ? "" : ", ") +
                            core::format_duration_option(core::Duration(std::llround(tau * 1e9)));
            }
            throw core::UsageError(fmt::format(
                "{} {}: τ={} is not computed for {}; its taus are octaves of the period: {}",
                option, metric.key, metric.key.substr(at + 1), run.input(), computed));
        }
    }
}

}  // namespace ppsbench::analysis
