// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/capture/sim_model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <charconv>
#include <cmath>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {

namespace {

constexpr std::string_view knob_help =
    "knobs: missed=RATE, outliers=RATE, outlier-size=DURATION, step=DURATION (may be negative), "
    "step-at=SECONDS, freq=PPM, late=DURATION (may be negative)";

[[noreturn]] void reject_sim_spec(std::string_view spec, std::string_view why) {
    throw core::UsageError(fmt::format("--source sim:{}: {}", spec, why));
}

double parse_number(std::string_view spec, std::string_view key, std::string_view value) {
    double number = 0;
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (ec != std::errc{} || ptr != value.data() + value.size() || !std::isfinite(number)) {
        reject_sim_spec(spec, fmt::format("{}='{}' is not a number", key, value));
    }
    return number;
}

double parse_rate(std::string_view spec, std::string_view key, std::string_view value) {
    const double rate = parse_number(spec, key, value);
    if (rate < 0.0 || rate >= 1.0) {
        reject_sim_spec(
            spec, fmt::format("{}={} must be a probability in [0, 1), e.g. 0.001", key, value));
    }
    return rate;
}

std::int64_t parse_signed_duration(std::string_view spec, std::string_view key,
                                   std::string_view value) {
    const bool negative = !value.empty() && value.front() == '-';
    if (negative || (!value.empty() && value.front() == '+')) {
        value.remove_prefix(1);
    }
    const auto option = fmt::format("--source sim:{} {}", spec, key);
    const std::int64_t ns = core::parse_duration(value, option).count();
    return negative ? -ns : ns;
}

}  // namespace

std::vector<std::string_view> sim_model_names() {
    return {"hardirq", "threaded", "nothread", "reference"};
}

SimModel parse_sim_model(std::string_view spec) {
    SimModel model;
    const auto comma = spec.find(',');
    model.name = std::string(spec.substr(0, comma));
    if (model.name == "hardirq") {
        model.latency = SimLatencyModel::hardirq;
    } else if (model.name == "threaded") {
        model.latency = SimLatencyModel::threaded;
    } else if (model.name == "nothread") {
        model.latency = SimLatencyModel::nothread;
    } else if (model.name == "reference") {
        model.latency = SimLatencyModel::reference;
    } else {
        reject_sim_spec(spec, fmt::format("unknown model '{}'; use one of {}", model.name,
                                          fmt::join(sim_model_names(), ", ")));
    }
    std::string_view rest = comma == std::string_view::npos ? "" : spec.substr(comma + 1);
    std::vector<std::string_view> given;
    while (!rest.empty()) {
        const auto next = rest.find(',');
        const std::string_view knob = rest.substr(0, next);
        rest = next == std::string_view::npos ? "" : rest.substr(next + 1);
        const auto eq = knob.find('=');
        if (eq == std::string_view::npos) {
            reject_sim_spec(spec, fmt::format("'{}' is not KEY=VALUE; {}", knob, knob_help));
        }
        const std::string_view key = knob.substr(0, eq);
        const std::string_view value = knob.substr(eq + 1);
        // As an option given twice on the command line: the last one would win unseen.
        if (std::find(given.begin(), given.end(), key) != given.end()) {
            reject_sim_spec(spec, fmt::format("'{}' is given twice; give each knob once", key));
        }
        given.push_back(key);
        if (key == "missed") {
            model.missed_rate = parse_rate(spec, key, value);
        } else if (key == "outliers") {
            model.outlier_rate = parse_rate(spec, key, value);
        } else if (key == "outlier-size") {
            model.outlier_ns = parse_signed_duration(spec, key, value);
        } else if (key == "step") {
            model.step_ns = parse_signed_duration(spec, key, value);
        } else if (key == "step-at") {
            const double at = parse_number(spec, key, value);
            if (at < 0) {
                reject_sim_spec(spec, "step-at must be >= 0 seconds into the run");
            }
            model.step_at_s = at;
        } else if (key == "late") {
            model.late_ns = parse_signed_duration(spec, key, value);
        } else if (key == "freq") {
            model.frequency_ppm = parse_number(spec, key, value);
            if (std::abs(model.frequency_ppm) > 1000.0) {
                reject_sim_spec(spec, "freq is in ppm and must be within ±1000");
            }
        } else {
            reject_sim_spec(spec, fmt::format("unknown knob '{}'; {}", key, knob_help));
        }
    }
    if (model.step_ns != 0 && !model.step_at_s) {
        model.step_at_s = 0.5 * 3600;  // half-way through an hour unless told
    }
    return model;
}

}  // namespace ppsbench::capture
