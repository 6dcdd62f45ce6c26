// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/file_plan.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <array>
#include <cerrno>
#include <cstdint>
#include <filesystem>

#include "ppsbench/core/error.hpp"

namespace ppsbench::core {

namespace {

// A file system's magic number is 32 bits (statfs(2)); f_type's type is long on 64-bit targets
// but a 32-bit int on 32-bit ARM, so the two are compared as 32-bit unsigned values: 0xcafe4a11
// (bpf) does not fit in a 32-bit long, and a signed f_type would hold it negative.
struct VirtualFs {
    std::uint32_t magic;
    const char* name;
};

// File systems the kernel makes up on the fly: they hold no user files (creating one fails
// with a misleading ENOENT or EACCES).
constexpr std::array<VirtualFs, 10> virtual_file_systems{{{0x9fa0, "proc"},
                                                          {0x62656572, "sysfs"},
                                                          {0x1cd1, "devpts"},
                                                          {0x64626720, "debugfs"},
                                                          {0x74726163, "tracefs"},
                                                          {0x27e0eb, "cgroup"},
                                                          {0x63677270, "cgroup2"},
                                                          {0x73636673, "securityfs"},
                                                          {0x6165676c, "pstore"},
                                                          {0xcafe4a11, "bpf"}}};

[[noreturn]] void refuse(std::string_view option, const std::string& path, std::string_view why) {
    throw UsageError(fmt::format("{} {}: {}", option, path, why));
}

}  // namespace

void check_writable_path(const std::string& path, std::string_view option) {
    if (path.empty()) {
        throw UsageError(fmt::format("{}: give a file name", option));
    }
    // Otherwise a file literally named "-" would appear: these outputs are files (a capture is
    // kept if the run is cut short and re-read for its summary), not streams.
    if (path == "-") {
        throw UsageError(fmt::format(
            "{} -: this output is written to a file, not to standard output; name a file", option));
    }
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            refuse(option, path,
                   fmt::format("is a directory; name a file in it, e.g. {}/run.csv",
                               std::filesystem::path(path).lexically_normal().string()));
        }
        if (!S_ISREG(st.st_mode)) {
            refuse(option, path, "exists and is not a regular file; choose a file name");
        }
    }
    const std::filesystem::path parent_path = std::filesystem::path(path).parent_path();
    const std::string folder = parent_path.empty() ? "." : parent_path.string();
    struct stat folder_st {};
    if (::stat(folder.c_str(), &folder_st) != 0) {
        refuse(option, path,
               fmt::format("the folder {} does not exist; create it first (mkdir -p {})", folder,
                           folder));
    }
    if (!S_ISDIR(folder_st.st_mode)) {
        refuse(option, path, fmt::format("{} is not a folder", folder));
    }
    struct statfs fs {};
    if (::statfs(folder.c_str(), &fs) == 0) {
        for (const auto& v : virtual_file_systems) {
            if (static_cast<std::uint32_t>(fs.f_type) == v.magic) {
                refuse(option, path,
                       fmt::format("{} is on the virtual file system {}, which cannot hold "
                                   "files; choose a path on a disk",
                                   folder, v.name));
            }
        }
    }
    struct statvfs vfs {};
    if (::statvfs(folder.c_str(), &vfs) == 0 && (vfs.f_flag & ST_RDONLY) != 0) {
        refuse(option, path,
               fmt::format("{} is on a read-only file system; choose a writable path", folder));
    }
    if (::access(folder.c_str(), W_OK | X_OK) != 0) {
        refuse(option, path,
               fmt::format("no permission to create files in {} ({}); choose a writable path",
                           folder, errno_message(errno)));
    }
}

}  // namespace ppsbench::core
