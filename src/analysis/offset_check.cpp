// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/offset_check.hpp"

#include <fmt/format.h>
#include <strings.h>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ppsbench/analysis/calibration.hpp"
#include "ppsbench/analysis/report.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"
#include "ppsbench/stats/offsets.hpp"
#include "ppsbench/stats/quantile.hpp"

namespace ppsbench::analysis {

namespace {

// chrony and ntpd both write seconds; ns to the nanosecond.
std::string seconds(double ns) {
    const double rounded = std::round(ns);
    return fmt::format("{:.9f}", (rounded == 0 ? 0.0 : rounded) / 1e9);
}

std::optional<double> parse_seconds(std::string_view text) {
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size() || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value * 1e9;
}

// `words` with the value after `key` replaced by `value`, or the pair appended.
std::string with_value(std::vector<std::string> words, std::string_view key,
                       const std::string& value) {
    bool replaced = false;
    for (std::size_t i = 0; i + 1 < words.size(); ++i) {
        if (strcasecmp(words[i].c_str(), std::string(key).c_str()) == 0) {
            words[i + 1] = value;
            replaced = true;
        }
    }
    if (!replaced) {
        words.emplace_back(key);
        words.push_back(value);
    }
    std::string line;
    for (const auto& word : words) {
        line += (line.empty() ? "" : " ") + word;
    }
    return line;
}

}  // namespace

std::optional<ConfiguredOffset> chrony_refclock_offset(const chrony::ConfDirective& directive) {
    const auto refclock = chrony::parse_refclock(directive);
    if (!refclock || strcasecmp(refclock->driver.c_str(), "PPS") != 0) {
        return std::nullopt;
    }
    ConfiguredOffset c{"chrony", directive.file, directive.line, directive.text, 0, false};
    if (const auto value = refclock->option("offset")) {
        if (const auto ns = parse_seconds(*value)) {
            c.offset_ns = *ns;
            c.given = true;
        }
    }
    return c;
}

std::vector<ConfiguredOffset> ntp_pps_offsets(std::string_view text, const std::string& file) {
    std::vector<ConfiguredOffset> found;
    int number = 0;
    while (!text.empty()) {
        const auto end = text.find('\n');
        std::string_view raw = text.substr(0, end);
        text = end == std::string_view::npos ? "" : text.substr(end + 1);
        ++number;
        if (const auto hash = raw.find('#'); hash != std::string_view::npos) {
            raw = raw.substr(0, hash);  // ntp.conf comments run to the end of the line
        }
        const auto words = core::split_whitespace(raw);
        if (words.size() < 2 || words[0] != "fudge" || !words[1].starts_with("127.127.22.")) {
            continue;
        }
        std::string line;
        for (const auto word : words) {
            line += (line.empty() ? "" : " ") + std::string(word);
        }
        ConfiguredOffset c{"ntpd", file, number, line, 0, false};
        for (std::size_t i = 2; i + 1 < words.size(); ++i) {
            if (words[i] == "time1") {
                if (const auto ns = parse_seconds(words[i + 1])) {
                    c.offset_ns = *ns;
                    c.given = true;
                }
            }
        }
        found.push_back(std::move(c));
    }
    return found;
}

std::vector<ConfiguredOffset> read_ntp_pps_offsets(const std::string& sysroot) {
    std::vector<ConfiguredOffset> found;
    for (const char* conf : {"/etc/ntpsec/ntp.conf", "/etc/ntp.conf"}) {
        std::ifstream in(std::filesystem::path(sysroot) / std::string(conf).substr(1));
        if (!in) {
            continue;
        }
        std::ostringstream text;
        text << in.rdbuf();
        auto lines = ntp_pps_offsets(text.str(), conf);
        found.insert(found.end(), lines.begin(), lines.end());
    }
    return found;
}

OffsetVerdict check_offset(const ConfiguredOffset& configured, double measured_ns,
                           double uncertainty_ns) {
    OffsetVerdict v;
    v.configured = configured;
    v.measured_ns = measured_ns;
    v.uncertainty_ns = uncertainty_ns;
    v.difference_ns = configured.offset_ns - measured_ns;
    v.matches = std::abs(v.difference_ns) <= uncertainty_ns;
    const auto words = core::split_whitespace(configured.text);
    v.fixed_line =
        with_value(std::vector<std::string>(words.begin(), words.end()),
                   configured.daemon == "ntpd" ? "time1" : "offset", seconds(measured_ns));
    return v;
}

BiasEvidence load_bias_evidence(const std::string& path) {
    const Report report = load_report({path}, {});
    const RunAnalysis& run = report.runs.at(0);
    if (!run.bias || run.bias->pairs == 0) {
        throw core::InputError(fmt::format(
            "--bias {}: no bias against a reference in it; give the PPS path's file of a run "
            "with one ('ppsbench run --source pps:/dev/pps0 --source poll:gpiochip0:18'), or "
            "its saved summary",
            path));
    }
    const Bias& bias = *run.bias;
    BiasEvidence e;
    e.input = path;
    e.reference = bias.reference;
    e.simulated = run.simulated;
    e.bias_median_ns = bias.median_ns;
    e.estimator = "median";
    e.measured_ns = bias.median_ns;
    e.uncertainty_ns =
        std::max(bias.median_interval.hi - bias.median_ns,
                 bias.median_ns - bias.median_interval.lo) +
        static_cast<double>(std::max<std::int64_t>(bias.reference_uncertainty_ns, 0));
    if (run.saved) {
        return e;
    }
    const CalibrationRun calibration_run = load_calibration_run({path}, core::Edge::assert_edge);
    const Calibration c = calibrate(calibration_run.lateness);
    if (c.refusal == CalibrationRefusal::none) {
        e.estimator = "chrony-filter";
        e.measured_ns = c.constant_ns;
        e.uncertainty_ns = c.uncertainty_ns;
    }
    std::vector<double> phases;
    for (const std::int64_t edge : calibration_run.lateness.edge_ns) {
        phases.push_back(static_cast<double>(stats::phase_offset_ns(
            edge, run.meta ? run.meta->period.count() : core::ns_per_second)));
    }
    if (!phases.empty()) {
        std::sort(phases.begin(), phases.end());
        e.clock_phase_ns = stats::quantile_sorted(phases, 0.5);
    }
    return e;
}

}  // namespace ppsbench::analysis
