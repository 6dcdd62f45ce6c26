#include "ppsbench/stats/json.hpp"

#include <cmath>

namespace ppsbench::stats {

namespace {

// nlohmann::json would print a NaN as null anyway, but only when dumping; converting here makes
// the value itself null, so a caller inspecting the object sees what a reader of the text will.
nlohmann::json number(double value) {
    if (std::isfinite(value)) {
        return value;
    }
    return nullptr;
}

nlohmann::json numbers(const std::vector<double>& values) {
    auto array = nlohmann::json::array();
    for (double v : values) {
        array.push_back(number(v));
    }
    return array;
}

}  // namespace

nlohmann::json to_json(const Summary& s) {
    const AbsPercentiles& p = s.abs_percentiles;
    return {
        {"mean", number(s.mean)},
        {"stddev", number(s.stddev)},
        {"peak_to_peak", number(s.peak_to_peak)},
        {"min", number(s.min)},
        {"max", number(s.max)},
        {"rms", number(s.rms)},
        {"median", number(s.median)},
        {"robust_stddev", number(s.robust_stddev)},
        {"abs_percentiles",
         {{"p50", number(p.p50)},
          {"p90", number(p.p90)},
          {"p99", number(p.p99)},
          {"p99.9", number(p.p99_9)},
          {"p99.99", number(p.p99_99)},
          {"max", number(p.max)}}},
        {"stddev_ci95",
         nlohmann::json::array({number(s.stddev_ci95.lo), number(s.stddev_ci95.hi)})},
    };
}

nlohmann::json to_json(const Stability& s) {
    return {
        {"tau_s", numbers(s.tau_s)},   {"adev", numbers(s.adev)},     {"mdev", numbers(s.mdev)},
        {"tdev_s", numbers(s.tdev_s)}, {"mtie_s", numbers(s.mtie_s)},
    };
}

nlohmann::json to_json(const RunStatistics& run) {
    auto steps = nlohmann::json::array();
    for (const ClockStep& step : run.clock_steps) {
        steps.push_back({{"timestamp_ns", step.timestamp_ns}, {"size_ns", number(step.size_ns)}});
    }
    return {
        {"pulses", run.pulses},
        {"missed_pulses", run.missed_pulses},
        {"outliers", run.outliers.pulses.size()},
        {"clock_steps", steps},
        {"offset_ns", run.offset_ns ? to_json(*run.offset_ns) : nlohmann::json(nullptr)},
        {"detrended_ns", to_json(run.detrended_ns)},
        {"period_jitter_ns", to_json(run.period_jitter_ns)},
        {"stability", run.stability ? to_json(*run.stability) : nlohmann::json(nullptr)},
    };
}

}  // namespace ppsbench::stats
