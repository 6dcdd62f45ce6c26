// SPDX-License-Identifier: GPL-2.0-or-later
#include "sysinfo/chrony_config.hpp"

#include <fnmatch.h>
#include <algorithm>

#include "ppsbench/chrony/conf.hpp"

namespace ppsbench::sysinfo::detail {

namespace {

std::string upper(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return text;
}

// chrony.conf's files under the root: paths as chronyd sees them, read from the fixture tree
// (or /). Wildcards only in the last component ("/etc/chrony/conf.d/*.conf"), which is what
// configurations use.
chrony::ConfFiles files_under(const SysRoot& root) {
    return {[&root](const std::string& path) { return root.read(path); },
            [&root](const std::string& pattern) {
                const std::filesystem::path path(pattern);
                const auto name = path.filename().string();
                if (name.find_first_of("*?[") == std::string::npos) {
                    return std::vector<std::string>{pattern};
                }
                std::vector<std::string> files;
                const auto dir = path.parent_path().string();
                for (const auto& entry : root.list(dir)) {  // sorted
                    if (fnmatch(name.c_str(), entry.c_str(), 0) == 0) {
                        files.push_back(dir + "/" + entry);
                    }
                }
                return files;
            }};
}

}  // namespace

bool refclock_uses_device(const RefclockLine& refclock, const SysRoot& root,
                          const std::string& pps_id, const std::string& dev_path) {
    if (pps_id.empty()) {
        return false;
    }
    // Options follow the device after ':' for some drivers ("/dev/pps0:clear").
    const auto parameter = refclock.parameter.substr(0, refclock.parameter.find(':'));
    if (refclock.driver == "PPS") {
        if (parameter == dev_path) {
            return true;
        }
        // A udev symlink (/dev/gpspps0 -> pps0).
        std::error_code ec;
        const auto resolved = root.resolve(parameter);
        if (std::filesystem::is_symlink(resolved, ec)) {
            return std::filesystem::read_symlink(resolved, ec).filename() == pps_id;
        }
        return false;
    }
    if (refclock.driver == "SOCK") {
        // gpsd hands PPS samples from /dev/ppsN to chrony over /run/chrony.ppsN.sock.
        return std::filesystem::path(parameter).filename() == "chrony." + pps_id + ".sock";
    }
    return false;
}

ChronyConfig read_chrony_config(const SysRoot& root, const std::string& config_file,
                                const std::string& pps_id, const std::string& dev_path) {
    std::string main_file = config_file;
    if (main_file.empty() || main_file.front() != '/') {
        main_file.clear();
        for (const char* candidate : {"/etc/chrony/chrony.conf", "/etc/chrony.conf"}) {
            if (root.exists(candidate)) {
                main_file = candidate;
                break;
            }
        }
    }
    ChronyConfig config;
    if (main_file.empty()) {
        return config;
    }
    auto conf = chrony::read_chrony_conf(main_file, files_under(root));
    config.files = std::move(conf.files);
    for (const auto& directive : conf.directives) {
        const auto parsed = chrony::parse_refclock(directive);
        if (!parsed) {
            continue;
        }
        RefclockLine refclock;
        refclock.file = directive.file;
        refclock.line = directive.line;
        refclock.text = directive.text;
        refclock.driver = upper(parsed->driver);
        refclock.parameter = directive.words[2];
        refclock.driver_options = parsed->driver_options;
        refclock.width = parsed->option("width").value_or("");
        refclock.rate = parsed->option("rate").value_or("");
        refclock.uses_device = refclock_uses_device(refclock, root, pps_id, dev_path);
        config.refclocks.push_back(std::move(refclock));
    }
    return config;
}

}  // namespace ppsbench::sysinfo::detail
