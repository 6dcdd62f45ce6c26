// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// An image's boot files, read as the firmware and GRUB read them: what the booted system's
// kernel command line and device tree overlays will be. Pure parsers, tested on their own.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/sysinfo/fingerprint.hpp"
#include "sysinfo/sysroot.hpp"

namespace ppsbench::sysinfo::detail {

// A Raspberry Pi config.txt: its `dtoverlay=` lines, with the `dtparam=` lines that follow each
// one (they apply to the last overlay) appended to its text, and the conditional section
// (`[pi4]`, `[all]`) each stands in. `include FILE` is followed through `read_include`.
std::vector<DtOverlay> parse_config_txt(
    std::string_view text, const std::string& file,
    const std::function<std::optional<std::string>(const std::string&)>& read_include);

// The kernel command line GRUB gives a normal boot entry: GRUB_CMDLINE_LINUX followed by
// GRUB_CMDLINE_LINUX_DEFAULT, as the shell assignments of /etc/default/grub (and the files of
// /etc/default/grub.d after it, in `texts`' order) leave them; "$VAR" and "${VAR}" expand to
// earlier assignments. Empty when neither is assigned.
std::optional<std::string> grub_cmdline(const std::vector<std::string>& texts);

// The boot files under the root: cmdline.txt and config.txt in /boot/firmware (Raspberry Pi OS
// from Bookworm), /boot (older releases) or the top of the root (the boot partition mounted on
// its own); else /etc/default/grub. And the kernels in /lib/modules.
BootConfig read_boot_config(const SysRoot& root);

}  // namespace ppsbench::sysinfo::detail
