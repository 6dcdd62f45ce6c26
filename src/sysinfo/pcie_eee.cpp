// SPDX-License-Identifier: GPL-2.0-or-later
// What PCIe and Ethernet power saving do to a PPS path: the link state of the bus that carries
// the GPIO interrupt (the Pi 5's RP1 sits behind PCIe, and an L1 link must wake before the
// interrupt arrives), and Energy-Efficient Ethernet on the NIC whose clock serves PTP.
#include <fmt/format.h>

#include "sysinfo/command_runner.hpp"
#include "sysinfo/parse.hpp"
#include "sysinfo/readers.hpp"
#include "sysinfo/sysroot.hpp"

namespace ppsbench::sysinfo::detail {

namespace {

// The RP1 I/O controller of the Raspberry Pi 5 (vendor Raspberry Pi Ltd, device 0x0001): its
// GPIO block raises the pps-gpio interrupt over the PCIe link.
constexpr std::string_view kRp1Vendor = "0x1de4";
constexpr std::string_view kRp1Device = "0x0001";

std::optional<bool> link_flag(const SysRoot& root, const std::string& dir, const char* name) {
    const auto text = root.read_line(dir + name);
    if (!text || (*text != "0" && *text != "1")) {
        return std::nullopt;
    }
    return *text == "1";
}

}  // namespace

std::string selected_policy(std::string_view line) {
    const auto open = line.find('[');
    const auto close = line.find(']', open);
    if (open == std::string_view::npos || close == std::string_view::npos) {
        return std::string(trim(line));  // a single word: the only policy
    }
    return std::string(line.substr(open + 1, close - open - 1));
}

PcieInfo read_pcie(const SysRoot& root) {
    PcieInfo pcie;
    if (const auto policy = root.read_line("/sys/module/pcie_aspm/parameters/policy")) {
        pcie.aspm_policy = selected_policy(*policy);
    }
    for (const auto& address : root.list("/sys/bus/pci/devices")) {
        const auto dir = "/sys/bus/pci/devices/" + address + "/";
        if (root.read_line(dir + "vendor").value_or("") != kRp1Vendor ||
            root.read_line(dir + "device").value_or("") != kRp1Device) {
            continue;
        }
        PcieLink link;
        link.address = address;
        link.name = "RP1 (the Raspberry Pi 5's GPIO controller)";
        const auto states = dir + "link/";
        link.l0s = link_flag(root, states, "l0s_aspm");
        link.l1 = link_flag(root, states, "l1_aspm");
        link.l1_1 = link_flag(root, states, "l1_1_aspm");
        link.l1_2 = link_flag(root, states, "l1_2_aspm");
        link.clkpm = link_flag(root, states, "clkpm");
        pcie.gpio_links.push_back(std::move(link));
    }
    return pcie;
}

std::string eee_status(std::string_view output) {
    constexpr std::string_view key = "EEE status:";
    const auto at = output.find(key);
    if (at == std::string_view::npos) {
        return {};
    }
    const auto rest = output.substr(at + key.size());
    return std::string(trim(rest.substr(0, rest.find('\n'))));
}

std::vector<NicEee> read_eee(const SysRoot& root, const FingerprintOptions& options,
                             const PtpInfo& ptp) {
    std::vector<NicEee> nics;
    std::string ethtool;
    for (const char* candidate : {"/usr/sbin/ethtool", "/sbin/ethtool", "/usr/bin/ethtool"}) {
        if (root.exists(candidate)) {
            ethtool = candidate;
            break;
        }
    }
    CommandRunner run = options.run_command;
    if (!run && root.is_live()) {
        run = run_program;
    }
    for (const auto& clock : ptp.clocks) {
        for (const auto& interface : clock.interfaces) {
            NicEee nic{interface, clock.id, {}, {}};
            if (!run) {
                nic.unknown_reason = "ethtool cannot be run on a copied tree";
            } else if (ethtool.empty()) {
                nic.unknown_reason = "ethtool is not installed";
            } else if (const auto output =
                           run({root.resolve(ethtool).string(), "--show-eee", interface})) {
                nic.status = eee_status(*output);
                if (nic.status.empty()) {
                    nic.unknown_reason = "ethtool --show-eee printed no EEE status";
                }
            } else {
                nic.unknown_reason = "ethtool --show-eee failed (it may need root here)";
            }
            nics.push_back(std::move(nic));
        }
    }
    return nics;
}

}  // namespace ppsbench::sysinfo::detail
