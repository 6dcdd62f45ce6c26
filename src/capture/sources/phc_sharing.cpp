// SPDX-License-Identifier: GPL-2.0-or-later
#include "phc_sharing.hpp"

#include <dirent.h>
#include <fmt/format.h>
#include <sys/utsname.h>
#include <charconv>
#include <fstream>
#include <memory>
#include <string_view>

namespace ppsbench::capture {

PhcSharing host_phc_sharing() {
    PhcSharing sharing;
    utsname name{};
    if (::uname(&name) == 0) {
        unsigned major = 0;
        unsigned minor = 0;
        const std::string_view release(name.release);
        const auto [p, ec] =
            std::from_chars(release.data(), release.data() + release.size(), major);
        if (ec == std::errc{} && p < release.data() + release.size() && *p == '.') {
            std::from_chars(p + 1, release.data() + release.size(), minor);
        }
        // "ptp: support multiple timestamp event readers" (Linux 6.7): a queue per open file.
        sharing.per_reader_queues = major > 6 || (major == 6 && minor >= 7);
    }
    std::unique_ptr<DIR, int (*)(DIR*)> proc(::opendir("/proc"), ::closedir);
    while (proc) {
        const dirent* entry = ::readdir(proc.get());
        if (entry == nullptr) {
            break;
        }
        const std::string_view pid(entry->d_name);
        if (pid.empty() || pid.find_first_not_of("0123456789") != std::string_view::npos) {
            continue;
        }
        std::ifstream comm(fmt::format("/proc/{}/comm", pid));
        std::string command;
        if (std::getline(comm, command) && command == "ts2phc") {
            sharing.other_reader = fmt::format("ts2phc (pid {})", pid);
            break;
        }
    }
    return sharing;
}

}  // namespace ppsbench::capture
