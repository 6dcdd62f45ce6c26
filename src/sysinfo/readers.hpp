// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The parts of read_fingerprint() (fingerprint.cpp), one file each: the PPS device and its
// interrupt (pps_device.cpp), power management (power.cpp) and chrony (chrony_info.cpp).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/sysinfo/fingerprint.hpp"
#include "sysinfo/sysroot.hpp"

namespace ppsbench::sysinfo::detail {

// A process as /proc lists it; kernel threads such as irq/N-name included.
struct Process {
    int pid = 0;
    std::string comm;
};

std::vector<Process> scan_processes(const SysRoot& root);

// Everything about /sys/class/pps/<id>: the driver, its handler shape, the interrupt and its
// thread. Empty when the device does not exist.
std::optional<PpsDevice> read_pps_device(const SysRoot& root, const std::string& id,
                                         const FingerprintOptions& options,
                                         const KernelInfo& kernel,
                                         const std::vector<Process>& processes);

PowerInfo read_power(const SysRoot& root);

// chronyd's process, version and the refclocks of the configuration it reads; `pps` (may be
// null) is the device whose refclock is looked for.
ChronyInfo read_chrony(const SysRoot& root, const FingerprintOptions& options,
                       const std::vector<Process>& processes, const PpsDevice* pps);

// The ASPM policy and the link states of the PCIe devices that carry GPIO interrupts
// (pcie_eee.cpp); `selected_policy` picks "[powersave]" out of the policy line.
PcieInfo read_pcie(const SysRoot& root);
std::string selected_policy(std::string_view line);

// `ethtool --show-eee` for each interface of a PHC (pcie_eee.cpp); `eee_status` is its
// "EEE status:" line ("enabled - active", "disabled", "not supported").
std::vector<NicEee> read_eee(const SysRoot& root, const FingerprintOptions& options,
                             const PtpInfo& ptp);
std::string eee_status(std::string_view ethtool_output);

// The PTP hardware clocks in /sys/class/ptp and whether ts2phc, phc2sys or ptp4l run.
PtpInfo read_ptp(const SysRoot& root, const std::vector<Process>& processes);

}  // namespace ppsbench::sysinfo::detail
