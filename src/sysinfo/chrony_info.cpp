// SPDX-License-Identifier: GPL-2.0-or-later
#include <filesystem>

#include "ppsbench/core/text.hpp"
#include "sysinfo/chrony_config.hpp"
#include "sysinfo/command_runner.hpp"
#include "sysinfo/parse.hpp"
#include "sysinfo/readers.hpp"
#include "sysinfo/sysroot.hpp"

namespace ppsbench::sysinfo::detail {

ChronyInfo read_chrony(const SysRoot& root, const FingerprintOptions& options,
                       const std::vector<Process>& processes, const PpsDevice* pps) {
    ChronyInfo chrony;
    for (const auto& process : processes) {
        if (process.comm == "chronyd") {
            chrony.running = true;
            chrony.pid = process.pid;
            break;
        }
    }
    for (const char* unit : {"/etc/systemd/system/multi-user.target.wants/chrony.service",
                             "/etc/systemd/system/multi-user.target.wants/chronyd.service"}) {
        // The link itself: its target (/lib/systemd/system/...) is absolute, so following it
        // from an image would look at this host's files.
        std::error_code ec;
        if (std::filesystem::exists(std::filesystem::symlink_status(root.resolve(unit), ec))) {
            chrony.enabled = true;
            chrony.enabled_by = unit;
            break;
        }
    }
    std::string binary;
    for (const char* candidate : {"/usr/sbin/chronyd", "/usr/bin/chronyd", "/sbin/chronyd"}) {
        if (root.exists(candidate)) {
            binary = candidate;
            break;
        }
    }
    chrony.installed = !binary.empty();
    CommandRunner run = options.run_command;
    if (!run && root.is_live()) {
        run = run_program;
    }
    if (chrony.installed && run) {
        // "chronyd (chrony) version 4.3 (+CMDMON ...)"
        if (const auto output = run({root.resolve(binary).string(), "--version"})) {
            const auto words = core::split_whitespace(*output);
            for (std::size_t i = 0; i + 1 < words.size(); ++i) {
                if (words[i] == "version") {
                    chrony.version = std::string(words[i + 1]);
                    break;
                }
            }
        }
    }
    // A chronyd started with -f reads that file instead of the packaged one.
    std::string config_file;
    if (chrony.running) {
        const auto cmdline = root.read("/proc/" + std::to_string(chrony.pid) + "/cmdline", 8192);
        config_file = option_value(cmdline.value_or(""), "-f").value_or("");
    }
    const auto config = read_chrony_config(root, config_file, pps == nullptr ? "" : pps->id,
                                           pps == nullptr ? "" : pps->dev_path);
    chrony.config_files = config.files;
    chrony.refclocks = config.refclocks;
    return chrony;
}

}  // namespace ppsbench::sysinfo::detail
