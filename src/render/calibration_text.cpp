// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/render/calibration_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <cmath>

#include "ppsbench/render/units.hpp"

namespace ppsbench::render {

namespace {

using analysis::CalibrationRefusal;

std::string refusal_key(CalibrationRefusal refusal) {
    switch (refusal) {
        case CalibrationRefusal::none:
            return "";
        case CalibrationRefusal::too_few_pulses:
            return "too_few_pulses";
        case CalibrationRefusal::drifting:
            return "drifting";
        case CalibrationRefusal::bimodal:
            return "bimodal";
    }
    return "";
}

std::string quarters_text(const analysis::Calibration& c) {
    std::string text;
    for (const double q : c.quarters_ns) {
        text += (text.empty() ? "" : ", ") + format_ns(q, true);
    }
    return text;
}

std::string refusal_text(const analysis::Calibration& c) {
    switch (c.refusal) {
        case CalibrationRefusal::none:
            return "";
        case CalibrationRefusal::too_few_pulses:
            return fmt::format(
                "only {} paired edge{}: that is {} of chrony's filter outputs ({} samples each), "
                "too few for one constant with a meaningful uncertainty; capture at least {} "
                "edges (e.g. --count 3600)",
                c.pairs, c.pairs == 1 ? "" : "s", c.polls, c.filter_samples, 8 * c.filter_samples);
        case CalibrationRefusal::drifting:
            return fmt::format(
                "the lateness drifted: {} in the run's quarters, a change beyond its noise; one "
                "constant would be wrong for part of the run. Find what moved it (temperature, "
                "CPU frequency, a link's power state, a change of configuration mid-run) and "
                "capture again",
                quarters_text(c));
        case CalibrationRefusal::bimodal:
            return fmt::format(
                "the lateness has two groups far apart (separation {:.1f}, the smaller {:.0f} % "
                "of the edges): mean {}, median {}; chrony's filter would follow whichever "
                "group fills each poll. Find the second path (an IRQ on another CPU, a "
                "threaded and a hard-IRQ timestamp) and capture again",
                c.separation, 100 * c.minor_share, format_ns(c.mean_ns, true),
                format_ns(c.median_ns, true));
    }
    return "";
}

// chrony's `refclock PPS` takes the device; ntpd's PPS driver (type 22) numbers it by unit.
std::string ntp_unit(const std::string& device) {
    const auto digits = device.find_last_not_of("0123456789");
    return device.size() > digits + 1 ? device.substr(digits + 1) : "0";
}

}  // namespace

std::string seconds_text(double ns) {
    const double rounded = std::round(ns);
    return fmt::format("{:.9f}", (rounded == 0 ? 0.0 : rounded) / 1e9);
}

std::string calibration_text(const CalibrationReport& report, double confidence) {
    const auto& c = report.calibration;
    std::string text = fmt::format(
        "calibrate: {}{} against {}, {} paired edges{}\n", report.run.label,
        report.run.simulated ? " (simulated)" : "", c.reference, c.pairs,
        report.run.inputs.size() > 1 ? fmt::format(" from {} files", report.run.inputs.size())
                                     : "");
    if (c.refusal != CalibrationRefusal::none) {
        return text + "  no constant: " + refusal_text(c) + "\n";
    }
    const std::string device = report.run.pps_device.empty() ? "/dev/pps0" : report.run.pps_device;
    const std::string seconds = seconds_text(c.constant_ns);
    text += fmt::format(
        "  lateness as chrony's filter averages it: {} ± {} ({} %; {} polls of {} samples)\n"
        "  (mean {}, median {}; quarters {})\n",
        format_ns(c.constant_ns, true), format_ns(c.uncertainty_ns), confidence_percent(confidence),
        c.polls, c.filter_samples, format_ns(c.mean_ns, true), format_ns(c.median_ns, true),
        quarters_text(c));
    text += fmt::format(
        "chrony.conf:  refclock PPS {} offset {}   (keep the line's other options)\n"
        "ntp.conf:     fudge 127.127.22.{} time1 {}\n",
        device, seconds, ntp_unit(device), seconds);
    if (report.run.pps_device.empty()) {
        text += "  (the path was not a PPS device: name yours in place of /dev/pps0)\n";
    }
    if (report.run.simulated) {
        text += "SIMULATED: these figures come from simulated pulses, not from hardware\n";
    }
    return text;
}

nlohmann::json calibration_json(const CalibrationReport& report) {
    const auto& c = report.calibration;
    const auto number = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nullptr; };
    nlohmann::json j{{"schema", "ppsbench.calibration/1"},
                     {"inputs", report.run.inputs},
                     {"label", report.run.label},
                     {"simulated", report.run.simulated},
                     {"reference", c.reference},
                     {"pairs", c.pairs},
                     {"polls", c.polls},
                     {"filter_samples", c.filter_samples},
                     {"mean_ns", number(c.mean_ns)},
                     {"median_ns", number(c.median_ns)},
                     // −1 in the struct: the reference stated none (a simulation's); null here.
                     {"reference_uncertainty_ns", c.reference_uncertainty_ns >= 0
                                                      ? nlohmann::json(c.reference_uncertainty_ns)
                                                      : nlohmann::json(nullptr)},
                     {"refusal", c.refusal == CalibrationRefusal::none
                                     ? nlohmann::json(nullptr)
                                     : nlohmann::json(refusal_key(c.refusal))}};
    if (c.refusal == CalibrationRefusal::too_few_pulses) {
        return j;
    }
    j["first_half_ns"] = number(c.first_half_ns);
    j["second_half_ns"] = number(c.second_half_ns);
    auto quarters = nlohmann::json::array();
    for (const double q : c.quarters_ns) {
        quarters.push_back(number(q));
    }
    j["quarters_ns"] = std::move(quarters);
    j["quantisation_ns"] = number(c.quantisation_ns);
    j["separation"] = number(c.separation);
    j["minor_share"] = number(c.minor_share);
    if (c.refusal == CalibrationRefusal::none) {
        j["constant_ns"] = number(c.constant_ns);
        j["uncertainty_ns"] = number(c.uncertainty_ns);
        j["chrony_offset_s"] = seconds_text(c.constant_ns);
        j["ntp_time1_s"] = seconds_text(c.constant_ns);
    }
    if (report.run.cpu_dma_latency_us) {
        j["cpu_dma_latency_us"] = *report.run.cpu_dma_latency_us;
    }
    return j;
}

std::string cpu_dma_latency_warning(const CalibrationReport& report) {
    if (!report.run.cpu_dma_latency_us) {
        return "";
    }
    return fmt::format(
        "warning: the run held /dev/cpu_dma_latency at {} µs; unless production holds it too, "
        "its lateness differs (a serial PPS went from 107 µs late to 29 µs with a hold of 0): "
        "calibrate on a run without --cpu-dma-latency, or hold it in production as well",
        *report.run.cpu_dma_latency_us);
}

std::string offset_check_text(const analysis::BiasEvidence& e,
                              const std::vector<analysis::OffsetVerdict>& verdicts) {
    std::string text = fmt::format(
        "\nCalibration (--bias {}{}):\n"
        "  bias (PPS timestamp − {}): median {}; it stays after a calibration\n",
        e.input, e.simulated ? ", simulated" : "", e.reference, format_ns(e.bias_median_ns, true));
    text += e.clock_phase_ns ? fmt::format(
                                   "  system clock's phase at the reference edges: median {}; a "
                                   "calibration brings it to 0\n",
                                   format_ns(*e.clock_phase_ns, true))
                             : std::string(
                                   "  system clock's phase at the reference edges: cannot tell "
                                   "from a saved summary (give the capture)\n");
    text += fmt::format(
        "  offset it calls for: {} ± {} ({})\n", format_ns(e.measured_ns, true),
        format_ns(e.uncertainty_ns),
        e.estimator == "chrony-filter" ? "as chrony's filter averages it" : "the median bias");
    if (verdicts.empty()) {
        text += fmt::format(
            "  [warn] no PPS refclock line found in chrony.conf or ntp.conf; add one with the "
            "offset: refclock PPS /dev/pps0 offset {}\n",
            seconds_text(e.measured_ns));
    }
    for (const auto& v : verdicts) {
        const auto& c = v.configured;
        if (v.matches) {
            text += fmt::format("  [ ok ] {}:{}: {} {} matches within ±{}\n", c.file, c.line,
                                c.daemon == "ntpd" ? "time1" : "offset",
                                format_ns(c.offset_ns, true), format_ns(v.uncertainty_ns));
        } else {
            text += fmt::format(
                "  [warn] {}:{}: {} {}{} is {} off; change the line to:\n         {}\n", c.file,
                c.line, c.daemon == "ntpd" ? "time1" : "offset", format_ns(c.offset_ns, true),
                c.given ? "" : " (none given)", format_ns(v.difference_ns, true), v.fixed_line);
        }
    }
    return text;
}

nlohmann::json offset_check_json(const analysis::BiasEvidence& e,
                                 const std::vector<analysis::OffsetVerdict>& verdicts) {
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& v : verdicts) {
        lines.push_back({{"daemon", v.configured.daemon},
                         {"file", v.configured.file},
                         {"line", v.configured.line},
                         {"text", v.configured.text},
                         {"offset_ns", v.configured.offset_ns},
                         {"offset_given", v.configured.given},
                         {"difference_ns", v.difference_ns},
                         {"matches", v.matches},
                         {"fixed_line", v.fixed_line}});
    }
    return {{"input", e.input},
            {"reference", e.reference},
            {"simulated", e.simulated},
            {"bias_median_ns", e.bias_median_ns},
            {"clock_phase_ns", e.clock_phase_ns ? nlohmann::json(*e.clock_phase_ns) : nullptr},
            {"estimator", e.estimator},
            {"measured_ns", e.measured_ns},
            {"uncertainty_ns", e.uncertainty_ns},
            {"lines", lines}};
}

}  // namespace ppsbench::render
