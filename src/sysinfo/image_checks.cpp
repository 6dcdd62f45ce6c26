// SPDX-License-Identifier: GPL-2.0-or-later
// The checks of an image (doctor --sysroot on a mounted SD card): what its boot files say, and
// "cannot tell" for what only the booted system shows. An image has no /proc or /sys, so the
// absence of a PPS device, an IRQ thread or a running chronyd there proves nothing.
#include <fmt/format.h>
#include <algorithm>

#include "sysinfo/checks.hpp"

namespace ppsbench::sysinfo::detail {

namespace {

const DtOverlay* pps_overlay(const BootConfig& boot) {
    const auto it = std::find_if(boot.overlays.begin(), boot.overlays.end(),
                                 [](const DtOverlay& o) { return o.name == "pps-gpio"; });
    return it == boot.overlays.end() ? nullptr : &*it;
}

constexpr std::string_view kBootAndRun =
    "Boot the image and run `ppsbench doctor` on the running system.";

}  // namespace

void check_image_device(const SystemFingerprint& fp, std::vector<Verdict>& out) {
    const auto& boot = fp.boot;
    if (const auto* overlay = pps_overlay(boot)) {
        out.push_back(verdict(
            Severity::ok, "pps-device",
            fmt::format("the image's {} loads `dtoverlay={}` (line {}{}): the booted system gets "
                        "a pps-gpio device.",
                        overlay->file, overlay->text, overlay->line,
                        overlay->section == "all"
                            ? ""
                            : fmt::format(", only on boards matching [{}]", overlay->section))));
        return;
    }
    if (!boot.config_file.empty()) {
        out.push_back(verdict(
            Severity::warn, "pps-device",
            fmt::format("the image's {} loads no pps-gpio overlay, so a PPS signal on a GPIO pin "
                        "gets no /dev/pps device at boot (a serial port's PPS, attached with "
                        "ldattach at run time, does not need one).",
                        boot.config_file),
            fmt::format("For a GPIO PPS add `dtoverlay=pps-gpio,gpiopin=<pin>` under [all] in {}.",
                        boot.config_file)));
        return;
    }
    out.push_back(verdict(Severity::unknown, "pps-device",
                          "cannot tell from an image which PPS device the booted system will "
                          "have: it has no /sys, and no config.txt with a pps-gpio overlay "
                          "(pps-ldisc and other clients are attached at run time).",
                          std::string(kBootAndRun)));
}

void check_image_running(const SystemFingerprint&, std::vector<Verdict>& out) {
    out.push_back(verdict(
        Severity::unknown, "running-system",
        "cannot tell from an image what only a running system shows: whether pulses arrive, "
        "where the PPS timestamp is taken (the interrupt, its IRQ thread and the loaded "
        "pps-gpio handler), the current clocksource, CPU frequency governors, idle states, PCIe "
        "link states and which services run.",
        std::string(kBootAndRun)));
}

void check_image_chrony(const SystemFingerprint& fp, std::vector<Verdict>& out) {
    const auto& chrony = fp.chrony;
    if (!chrony.installed) {
        out.push_back(verdict(Severity::warn, "chrony-running",
                              "chrony is not installed in the image (no chronyd in /usr/sbin), "
                              "so nothing will discipline the clock to the PPS.",
                              "Install chrony in the image (apt install chrony) and configure a "
                              "refclock for the PPS device."));
    } else {
        out.push_back(verdict(
            Severity::unknown, "chrony-running",
            fmt::format("cannot tell from an image whether chronyd runs: it is installed{}.",
                        chrony.enabled ? " and enabled at boot (" + chrony.enabled_by + ")"
                                       : ", and no systemd link enables it at boot"),
            std::string(kBootAndRun)));
    }
    for (const auto& refclock : chrony.refclocks) {
        if (refclock.driver == "PPS" || refclock.uses_device) {
            out.push_back(verdict(Severity::ok, "chrony-refclock",
                                  fmt::format("chrony is configured for a PPS: `{}` ({}:{}).",
                                              refclock.text, refclock.file, refclock.line)));
            return;
        }
    }
    if (chrony.config_files.empty()) {
        return;  // the chrony-running verdict already says what is missing
    }
    out.push_back(verdict(
        Severity::warn, "chrony-refclock",
        fmt::format("no `refclock PPS` line in the image's chrony configuration ({}), so chrony "
                    "will not discipline the clock to a PPS device.",
                    chrony.config_files.front()),
        "Add `refclock PPS /dev/pps0 lock NMEA refid PPS` (with a time-of-day source refid NMEA, "
        "e.g. `refclock SHM 0 refid NMEA noselect` from gpsd) to /etc/chrony/conf.d/."));
}

}  // namespace ppsbench::sysinfo::detail
