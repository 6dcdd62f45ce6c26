// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>

#include "sysinfo/checks.hpp"

namespace ppsbench::sysinfo::detail {

namespace {

// An interrupt averaging more than this on the PPS interrupt's CPU is worth moving away.
constexpr double kBusyNeighbourRate = 1000.0;

constexpr std::string_view kNoPulseFix =
    "Check the PPS wiring, the GPIO pin and edge configured for the driver (e.g. dtoverlay "
    "pps-gpio gpiopin=, assert_falling_edge=), and that the receiver has a fix: most GPS "
    "receivers emit PPS only while they have one.";

std::string describe_event(const PpsEvent& event) {
    return fmt::format("#{} at {}.{:09}", event.sequence, event.seconds, event.nanoseconds);
}

}  // namespace

void check_device(const SystemFingerprint& fp, std::vector<Verdict>& out) {
    if (fp.pps) {
        const auto& pps = *fp.pps;
        std::string message =
            fmt::format("{}: \"{}\", {}", pps.dev_path, pps.name,
                        pps.driver.empty() ? std::string(to_string(pps.kind)) : pps.driver);
        if (pps.irq) {
            message += fmt::format(", IRQ {}", pps.irq->number);
        }
        out.push_back(verdict(Severity::ok, "pps-device", message + "."));
        return;
    }
    std::string available = "none";
    if (!fp.available_devices.empty()) {
        available.clear();
        for (const auto& id : fp.available_devices) {
            available += (available.empty() ? "/dev/" : ", /dev/") + id;
        }
    }
    if (!fp.requested_device.empty()) {
        out.push_back(verdict(
            Severity::fail, "pps-device",
            fmt::format(
                "no PPS device {}: /sys/class/pps has no such entry (PPS devices here: {}).",
                fp.requested_device, available),
            "Name an existing device, or load the PPS client that should provide it."));
        return;
    }
    out.push_back(verdict(
        Severity::fail, "pps-device",
        "no PPS device: /sys/class/pps lists none, so there is nothing to measure.",
        "Load and configure a PPS client: on a Raspberry Pi add dtoverlay=pps-gpio,gpiopin=<pin> "
        "to config.txt and reboot; for a serial port's DCD line attach pps-ldisc with "
        "`ldattach PPS /dev/ttyS0`. Then check `ls /sys/class/pps`."));
}

void check_pulses(const PpsDevice& pps, std::vector<Verdict>& out) {
    const std::string check = "pps-pulses";
    if (!pps.assert_first && !pps.clear_first) {
        out.push_back(
            verdict(Severity::warn, check,
                    fmt::format("could not read /sys/class/pps/{}/assert or clear.", pps.id),
                    "Check that sysfs is mounted and readable."));
        return;
    }
    const auto sequence = [](const std::optional<PpsEvent>& event) {
        return event ? event->sequence : 0;
    };
    const auto first = sequence(pps.assert_first) + sequence(pps.clear_first);
    if (first == 0) {
        out.push_back(verdict(Severity::fail, check,
                              fmt::format("{} has not captured a single pulse since it was "
                                          "registered (assert and clear sequence 0).",
                                          pps.dev_path),
                              std::string(kNoPulseFix)));
        return;
    }
    const auto& latest = pps.assert_first ? *pps.assert_first : *pps.clear_first;
    if (pps.snapshot) {
        out.push_back(verdict(
            Severity::ok, check,
            fmt::format("not checked: a snapshot cannot pulse; it had captured edges, the last "
                        "{}.",
                        describe_event(latest))));
        return;
    }
    if (!pps.pulses_sampled) {
        out.push_back(verdict(
            Severity::warn, check,
            fmt::format("pulse activity not checked (no wait): the last captured edge is {}.",
                        describe_event(latest)),
            "Run without --pulse-wait 0 to see whether pulses are still arriving."));
        return;
    }
    const auto second = sequence(pps.assert_second) + sequence(pps.clear_second);
    const double waited = static_cast<double>(pps.pulse_wait.count()) / 1000.0;
    if (second == first) {
        out.push_back(verdict(Severity::fail, check,
                              fmt::format("no pulse in {:.1f} s: {} stays at {}; the source has "
                                          "stopped or lost its signal.",
                                          waited, pps.dev_path, describe_event(latest)),
                              std::string(kNoPulseFix)));
        return;
    }
    out.push_back(verdict(Severity::ok, check,
                          fmt::format("{} new edge(s) in {:.1f} s (sequence {} -> {}).",
                                      second - first, waited, first, second)));
}

void check_driver(const PpsDevice& pps, std::vector<Verdict>& out) {
    const std::string check = "pps-driver";
    switch (pps.kind) {
        case PpsDriverKind::ktimer:
            out.push_back(verdict(
                Severity::warn, check,
                "pps-ktimer is a software test source: its pulses come from a kernel timer, not "
                "from a signal, so measurements describe timer latency, not PPS reception.",
                "Use it to try ppsbench only; measure the device of the real PPS signal."));
            break;
        case PpsDriverKind::ptp:
            out.push_back(verdict(
                Severity::warn, check,
                "a PTP hardware clock's PPS events are stamped with the system clock when the "
                "NIC driver reports them; ppsbench does not diagnose that path.",
                "Compare with phc2sys or chrony's PHC refclock, which read the clock directly."));
            break;
        case PpsDriverKind::pps_ldisc:
            if (is_usb_tty(pps)) {
                out.push_back(verdict(
                    Severity::warn, check,
                    fmt::format("pps-ldisc on the USB serial port {}: the DCD change reaches the "
                                "kernel in a USB transfer polled every 1 ms (full speed) or 125 µs "
                                "(high speed), so timestamps carry up to that much jitter.",
                                pps.path),
                    "Use a UART of the board (ttyS, ttyAMA) or a GPIO with pps-gpio."));
            }
            break;
        case PpsDriverKind::unknown:
            out.push_back(verdict(
                Severity::warn, check,
                fmt::format("cannot tell which driver provides {} (name \"{}\"{}), so where its "
                            "timestamp is taken is not diagnosed.",
                            pps.dev_path, pps.name,
                            pps.driver.empty() ? "" : ", driver " + pps.driver),
                "Check /sys/class/pps/" + pps.id + "/device/uevent."));
            break;
        case PpsDriverKind::pps_gpio:
            break;
    }
}

void check_irq(const SystemFingerprint& fp, std::vector<Verdict>& out) {
    const auto& pps = *fp.pps;
    const bool has_own_irq = pps.kind == PpsDriverKind::pps_gpio ||
                             (pps.kind == PpsDriverKind::pps_ldisc && !is_usb_tty(pps));
    if (!has_own_irq) {
        return;
    }
    if (!pps.irq) {
        out.push_back(verdict(
            Severity::warn, "pps-irq",
            fmt::format("no interrupt for \"{}\" in /proc/interrupts, so its IRQ thread and CPU "
                        "could not be checked.",
                        pps.kind == PpsDriverKind::pps_ldisc ? pps.path : pps.name),
            "Check `cat /proc/interrupts` for the PPS interrupt's name."));
        return;
    }
    const auto& irq = *pps.irq;
    std::vector<const NeighbourIrq*> busy;
    for (const auto& neighbour : irq.busy_neighbours) {
        if (neighbour.rate_per_second >= kBusyNeighbourRate) {
            busy.push_back(&neighbour);
        }
    }
    if (busy.empty() || !irq.serving_cpu) {
        return;
    }
    std::string list;
    for (const auto* neighbour : busy) {
        list += fmt::format("{}IRQ {} ({}) at {:.0f}/s", list.empty() ? "" : ", ", neighbour->irq,
                            neighbour->actions, neighbour->rate_per_second);
    }
    out.push_back(verdict(
        Severity::warn, "pps-irq-cpu",
        fmt::format("CPU {} takes the PPS interrupt {} and also {} (averages since boot): while "
                    "one of their hard-IRQ handlers runs, the PPS interrupt waits, which shows "
                    "as occasional late timestamps.",
                    *irq.serving_cpu, irq.number, list),
        fmt::format("Steer the busy interrupts to other CPUs (echo <cpus> > "
                    "/proc/irq/{}/smp_affinity_list, or irqaffinity= on the kernel command line; "
                    "stop irqbalance from moving them back), or the PPS interrupt if its "
                    "controller allows it.",
                    busy.front()->irq)));
}

}  // namespace ppsbench::sysinfo::detail
