// SPDX-License-Identifier: GPL-2.0-or-later
// Which edge chrony takes (issue 24, item 7). A PPS pulse has two edges and only one is on the
// second; a refclock on the other makes the clock late by the pulse width (or its complement),
// 100-500 ms with common receivers. Read from chrony.conf (chrony.conf(5), refclock options):
// - `refclock PPS DEV:clear` takes the clear (falling) edge instead of the assert edge;
// - `refclock PHC DEV:extpps` timestamps an external pulse; "some PTP clocks cannot be
//   configured to timestamp only assert or clear events", and then `width W` is what filters
//   the wrong edge: chrony (refclock.c, check_pulse_edge) drops a pulse whose offset exceeds
//   min(W, 1/rate - W) / 2, so the edge W away from the second cannot pass.
// And, where the PPS device captures both edges, from its last assert and clear timestamps.
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "sysinfo/checks.hpp"

namespace ppsbench::sysinfo::detail {

namespace {

const std::string kCheck = "chrony-refclock-edge";

// An edge this close to the system clock's second is "on the second"; one this far is not.
constexpr double kOnSecond = 0.010;
constexpr double kOffSecond = 0.050;

constexpr unsigned kCaptureAssert = 0x01;  // PPS_CAPTUREASSERT, <linux/pps.h>
constexpr unsigned kCaptureClear = 0x02;   // PPS_CAPTURECLEAR

bool has(const std::vector<std::string>& options, std::string_view name) {
    return std::find(options.begin(), options.end(), name) != options.end();
}

std::optional<double> number(const std::string& text) {
    if (text.empty()) {
        return std::nullopt;
    }
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() ? std::optional<double>(value) : std::nullopt;
}

// The last assert and clear of one pulse, in seconds from the system clock's second.
struct BothEdges {
    double assert_phase = 0.0;
    double clear_phase = 0.0;
    double width = 0.0;  // assert to clear, in [0, 1) s
};

double phase_of(const PpsEvent& event) {
    const double ns = event.nanoseconds;
    return (ns > 5e8 ? ns - 1e9 : ns) / 1e9;
}

std::optional<BothEdges> both_edges(const PpsDevice& pps) {
    if (!pps.assert_first || !pps.clear_first || pps.assert_first->sequence == 0 ||
        pps.clear_first->sequence == 0) {
        return std::nullopt;
    }
    const auto& a = *pps.assert_first;
    const auto& c = *pps.clear_first;
    const double apart = static_cast<double>(c.seconds - a.seconds) +
                         static_cast<double>(c.nanoseconds - a.nanoseconds) / 1e9;
    if (std::fabs(apart) >= 2.0) {
        return std::nullopt;  // not the same pulse or its neighbour: one edge has stopped
    }
    return BothEdges{phase_of(a), phase_of(c), apart - std::floor(apart)};
}

std::string ms(double seconds) {
    return fmt::format("{:.1f} ms", seconds * 1e3);
}

std::string edge_name(bool clear) {
    return clear ? "clear (falling)" : "assert (rising)";
}

// `refclock PPS` on this device, against what the device captures and its last two edges.
bool check_pps_evidence(const RefclockLine& r, const PpsDevice& pps, std::vector<Verdict>& out) {
    const bool clear = has(r.driver_options, "clear");
    const unsigned wanted = clear ? kCaptureClear : kCaptureAssert;
    if (pps.mode && (*pps.mode & wanted) == 0) {
        out.push_back(verdict(
            Severity::fail, kCheck,
            fmt::format("`{}` ({}:{}) takes {} events, which {} does not capture (mode 0x{:x}), "
                        "so chrony gets no samples from it.",
                        r.text, r.file, r.line, edge_name(clear), pps.dev_path, *pps.mode),
            clear ? "Remove `:clear`; or, if the receiver's pulse falls on the second, make the "
                    "falling edge the assert edge (pps-gpio: "
                    "`dtoverlay=pps-gpio,gpiopin=<pin>,assert_falling_edge`)."
                  : "Capture assert events on the device, or add `:clear` if its clear edge is "
                    "on the second."));
        return true;
    }
    const auto edges = both_edges(pps);
    if (!edges) {
        return false;
    }
    const double used = clear ? edges->clear_phase : edges->assert_phase;
    const double other = clear ? edges->assert_phase : edges->clear_phase;
    if (std::fabs(used) > kOffSecond && std::fabs(other) < kOnSecond) {
        out.push_back(verdict(
            Severity::fail, kCheck,
            fmt::format("`{}` ({}:{}) takes the {} edge of {}, which is {} off the second, while "
                        "its {} edge is {} from it (pulse width {}): disciplined to it, the "
                        "clock would be {} off.",
                        r.text, r.file, r.line, edge_name(clear), pps.dev_path, ms(used),
                        edge_name(!clear), ms(other), ms(edges->width), ms(std::fabs(used))),
            clear ? "Remove `:clear` from the refclock line and restart chrony."
                  : "Add `:clear` to the device (`refclock PPS " + pps.dev_path +
                        ":clear ...`) and restart chrony, or invert the signal."));
        return true;
    }
    if (std::fabs(used) < kOnSecond && std::fabs(other) > kOffSecond) {
        out.push_back(verdict(
            Severity::ok, kCheck,
            fmt::format("`{}` takes the {} edge of {}, {} from the system clock's second; the {} "
                        "edge comes {} after the assert edge (the pulse width). A clock "
                        "disciplined by this very refclock sits on whichever edge it takes, so "
                        "this agrees with, but does not prove, the receiver's datasheet.",
                        r.text, edge_name(clear), pps.dev_path, ms(used), edge_name(!clear),
                        ms(edges->width))));
        return true;
    }
    return false;
}

void check_pps_refclock(const RefclockLine& r, const SystemFingerprint& fp,
                        std::vector<Verdict>& out) {
    if (r.uses_device && fp.pps && check_pps_evidence(r, *fp.pps, out)) {
        return;
    }
    if (!has(r.driver_options, "clear")) {
        return;  // the assert edge: the default, and the one most receivers put on the second
    }
    out.push_back(verdict(
        Severity::warn, kCheck,
        fmt::format("`{}` ({}:{}) takes the clear (falling) edge. That is right only for a "
                    "receiver whose pulse falls on the second; most (u-blox, MediaTek, SiRF) "
                    "rise on it, and their falling edge comes a pulse width (often 100 ms) later, "
                    "which makes the clock that much late.",
                    r.text, r.file, r.line),
        "Check which edge the receiver's datasheet puts on the second, or capture both edges "
        "(`ppsbench run --edge both`) and see which row's phase offsets sit near 0; if it rises "
        "on the second, remove `:clear`."));
}

void check_phc_refclock(const RefclockLine& r, std::vector<Verdict>& out) {
    if (!has(r.driver_options, "extpps")) {
        return;  // the PHC read as a clock, not a pulse: no edge to choose
    }
    const std::string where = fmt::format("`{}` ({}:{})", r.text, r.file, r.line);
    if (r.width.empty()) {
        out.push_back(verdict(
            Severity::warn, kCheck,
            where + " timestamps an external pulse without `width`. Some PHCs (Intel's I210 and "
                    "I225/I226 among them) timestamp both edges whatever edge is asked for; "
                    "without `width` chrony cannot tell them apart and takes the edge that is "
                    "not on the second too, which has left clocks 200-500 ms late.",
            "Add `width W`, the pulse width in seconds from the receiver's datasheet (0.1 for a "
            "100 ms pulse): chrony then drops pulses more than min(W, 1 s - W) / 2 from the "
            "second, so the other edge cannot pass."));
        return;
    }
    const auto width = number(r.width);
    const auto rate = r.rate.empty() ? std::optional<double>(1.0) : number(r.rate);
    const double period = rate && *rate > 0 ? 1.0 / *rate : 0.0;
    if (!width || period <= 0.0 || *width <= 0.0 || *width >= period) {
        out.push_back(verdict(
            Severity::fail, kCheck,
            fmt::format("{} has `width {}`{}, which is not a pulse width inside its {} period: "
                        "chrony's edge filter (min(W, period - W) / 2) then drops every pulse.",
                        where, r.width, r.rate.empty() ? "" : " with `rate " + r.rate + "`",
                        period > 0 ? ms(period) : std::string("unknown")),
            "Set `width` to the receiver's pulse width in seconds (0.1 for a 100 ms pulse), "
            "below the period."));
        return;
    }
    const double window = std::min(*width, period - *width) / 2;
    out.push_back(verdict(
        Severity::ok, kCheck,
        fmt::format("{}: `width {}` makes chrony drop pulses more than {} from the second, so "
                    "the other edge ({} away) cannot pass{}.",
                    where, r.width, ms(window), ms(std::min(*width, period - *width)),
                    has(r.driver_options, "clear") ? "; it takes the clear edge" : "")));
}

}  // namespace

void check_refclock_edges(const SystemFingerprint& fp, std::vector<Verdict>& out) {
    for (const auto& refclock : fp.chrony.refclocks) {
        if (refclock.driver == "PPS") {
            check_pps_refclock(refclock, fp, out);
        } else if (refclock.driver == "PHC") {
            check_phc_refclock(refclock, out);
        }
    }
}

}  // namespace ppsbench::sysinfo::detail
