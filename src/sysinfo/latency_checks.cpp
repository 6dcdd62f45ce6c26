// SPDX-License-Identifier: GPL-2.0-or-later
// More that makes a PPS timestamp late (issue 24, item 6), each measured as significant on
// real time servers: an IRQ thread allowed elsewhere than its interrupt, PCIe link power states
// on the GPIO controller's bus (Pi 5: 11.7 µs late with the RP1's L1 on, 6.2 µs with it off),
// and Energy-Efficient Ethernet on the NIC whose clock serves PTP.
#include <fmt/format.h>
#include <algorithm>

#include "sysinfo/checks.hpp"
#include "sysinfo/parse.hpp"

namespace ppsbench::sysinfo::detail {

void check_irq_thread_affinity(const SystemFingerprint& fp, std::vector<Verdict>& out) {
    const auto& pps = *fp.pps;
    if (!pps.irq || !pps.irq->thread) {
        return;
    }
    const auto& irq = *pps.irq;
    const auto& thread = *irq.thread;
    // The interrupt arrives on its effective affinity where the controller reports one; the
    // kernel gives the thread that affinity, so only a thread moved by hand (taskset) differs.
    const auto& taken_on =
        irq.effective_affinity_list.empty() ? irq.smp_affinity_list : irq.effective_affinity_list;
    const auto irq_cpus = parse_cpu_list(taken_on);
    const auto thread_cpus = parse_cpu_list(thread.cpus_allowed);
    if (irq_cpus.empty() || thread_cpus.empty() || irq_cpus == thread_cpus) {
        return;
    }
    const bool in_thread = timestamp_context(fp) == TimestampContext::thread;
    out.push_back(verdict(
        in_thread ? Severity::warn : Severity::ok, "irq-thread-affinity",
        fmt::format("the PPS interrupt {} is taken on CPU {} ({}smp_affinity_list {}) but its "
                    "thread {} may run on CPU {}: the hard IRQ then wakes the thread on another "
                    "CPU, through an inter-processor interrupt and that CPU's own wake-up, {}.",
                    irq.number, taken_on,
                    irq.effective_affinity_list.empty() ? "" : "effective affinity; ",
                    irq.smp_affinity_list, thread.comm, thread.cpus_allowed,
                    in_thread ? "which the timestamp taken in the thread carries"
                              : "which delays only what the thread runs (pps_event(), waking "
                                "readers such as chronyd), not the timestamp taken in hard IRQ"),
        in_thread ? fmt::format("Move the interrupt, not the thread: `echo {} > "
                                "/proc/irq/{}/smp_affinity_list` (the kernel gives the thread "
                                "the interrupt's affinity) and drop the taskset on {}; or take "
                                "the timestamp in hard IRQ (see pps-timestamp-context).",
                                thread.cpus_allowed, irq.number, thread.comm)
                  : std::string()));
}

namespace {

std::string link_states(const PcieLink& link) {
    std::string on;
    for (const auto& [name, state] : {std::pair{"L0s", link.l0s}, std::pair{"L1", link.l1},
                                      std::pair{"L1.1", link.l1_1}, std::pair{"L1.2", link.l1_2}}) {
        if (state == true) {
            on += (on.empty() ? "" : ", ") + std::string(name);
        }
    }
    return on;
}

}  // namespace

void check_pcie_aspm(const SystemFingerprint& fp, std::vector<Verdict>& out) {
    const auto& pcie = fp.pcie;
    for (const auto& link : pcie.gpio_links) {
        const auto on = link_states(link);
        if (!link.l0s && !link.l1 && !link.l1_1 && !link.l1_2) {
            continue;  // the kernel exposes no link states for it
        }
        if (on.empty()) {
            out.push_back(verdict(Severity::ok, "pcie-aspm",
                                  fmt::format("the PCIe link of the {} at {} stays active (no "
                                              "ASPM state enabled).",
                                              link.name, link.address)));
            continue;
        }
        out.push_back(verdict(
            Severity::warn, "pcie-aspm",
            fmt::format("the PCIe link of the {} at {} may sleep in {} between pulses (ASPM "
                        "policy {}): the GPIO interrupt then waits for the link to wake. "
                        "Measured on a Pi 5: the PPS timestamp 11.7 µs late with L1, 6.2 µs "
                        "without.",
                        link.name, link.address, on,
                        pcie.aspm_policy.empty() ? "unknown" : pcie.aspm_policy),
            fmt::format("Turn the states off: `echo 0 | sudo tee "
                        "/sys/bus/pci/devices/{}/link/l1_aspm` (and l0s_aspm, l1_1_aspm, "
                        "l1_2_aspm; until reboot), or boot with pcie_aspm=off (cmdline.txt).",
                        link.address)));
    }
    if (!pcie.gpio_links.empty() || pcie.aspm_policy.empty()) {
        return;
    }
    if (pcie.aspm_policy == "powersave" || pcie.aspm_policy == "powersupersave") {
        out.push_back(verdict(
            Severity::warn, "pcie-aspm",
            fmt::format("the PCIe ASPM policy is {}: links sleep between transfers, so a PPS "
                        "input behind PCIe (a serial card's DCD, a NIC's PHC input) waits for "
                        "its link to wake.",
                        pcie.aspm_policy),
            "Boot with pcie_aspm.policy=performance (or write performance to "
            "/sys/module/pcie_aspm/parameters/policy as root)."));
    }
}

void check_eee(const SystemFingerprint& fp, std::vector<Verdict>& out) {
    for (const auto& nic : fp.eee) {
        if (nic.status.empty()) {
            out.push_back(verdict(
                Severity::unknown, "eee",
                fmt::format("cannot tell whether Energy-Efficient Ethernet is on for {} (the "
                            "NIC of /dev/{}): {}.",
                            nic.interface, nic.phc, nic.unknown_reason),
                fmt::format("Run `sudo ethtool --show-eee {}` (apt install ethtool).",
                            nic.interface)));
        } else if (nic.status.starts_with("enabled")) {
            out.push_back(verdict(
                Severity::warn, "eee",
                fmt::format("Energy-Efficient Ethernet is {} on {} (the NIC of /dev/{}): the link "
                            "idles in a low-power state between packets and wakes for the next "
                            "one, which delays PTP packets by a varying amount and skews the "
                            "clock's offset.",
                            nic.status, nic.interface, nic.phc),
                fmt::format("Turn it off: `sudo ethtool --set-eee {} eee off`, made permanent "
                            "by a udev rule or your network manager's ethtool settings.",
                            nic.interface)));
        } else {
            out.push_back(verdict(Severity::ok, "eee",
                                  fmt::format("Energy-Efficient Ethernet is {} on {} (the NIC "
                                              "of /dev/{}).",
                                              nic.status, nic.interface, nic.phc)));
        }
    }
}

}  // namespace ppsbench::sysinfo::detail
