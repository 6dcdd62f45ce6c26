// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>
#include <vector>

#include "ppsbench/sysinfo/fingerprint.hpp"
#include "sysinfo/sysroot.hpp"

namespace ppsbench::sysinfo::detail {

struct ChronyConfig {
    std::vector<std::string> files;
    std::vector<RefclockLine> refclocks;
};

// Reads chrony's configuration as chronyd would: `config_file` when chronyd was started with
// -f, else /etc/chrony/chrony.conf (Debian) or /etc/chrony.conf (Fedora), following `include`
// and `confdir` (*.conf files). Refclock lines are marked when they use the PPS device `pps_id`
// ("pps0") at `dev_path` ("/dev/pps0").
ChronyConfig read_chrony_config(const SysRoot& root, const std::string& config_file,
                                const std::string& pps_id, const std::string& dev_path);

// Whether a refclock's driver and parameter name this PPS device: `refclock PPS /dev/pps0`, or
// gpsd's socket for it (`refclock SOCK /run/chrony.pps0.sock`).
bool refclock_uses_device(const RefclockLine& refclock, const SysRoot& root,
                          const std::string& pps_id, const std::string& dev_path);

}  // namespace ppsbench::sysinfo::detail
