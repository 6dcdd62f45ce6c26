// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <filesystem>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/file_plan.hpp"
#include "ppsbench/core/unique_fd.hpp"

namespace ppsbench::core {

namespace {

namespace fs = std::filesystem;

// A name no other writer uses: hidden (node_exporter reads only *.prom, a glob skips it), with
// the pid and a counter for two writers in one folder.
UniqueFd create_temporary(const fs::path& target, std::string& name) {
    static std::atomic<unsigned> counter{0};
    for (int attempt = 0; attempt < 100; ++attempt) {
        name = (target.parent_path() /
                fmt::format(".{}.tmp-{}-{}", target.filename().string(), ::getpid(), counter++))
                   .string();
        // 0666: the umask decides, as for every file ppsbench creates (the monitor's
        // world-readable .prom under UMask=0022).
        UniqueFd fd(::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
        if (fd.valid() || errno != EEXIST) {
            return fd;
        }
    }
    return UniqueFd();
}

bool write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

// The rename is durable only once the folder's entry is on disk.
bool sync_folder(const fs::path& folder) {
    const UniqueFd fd(
        ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    return fd.valid() && ::fsync(fd.get()) == 0;
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view text, std::string_view use) {
    const fs::path target = write_target(path);
    const auto fail = [&](int err) {
        return InputError(fmt::format("{} {}: cannot write the file ({}); choose a writable path",
                                      use, path, errno_message(err)));
    };
    std::string temporary;
    UniqueFd fd = create_temporary(target, temporary);
    if (!fd.valid()) {
        throw fail(errno);
    }
    const bool written = write_all(fd.get(), text) && ::fsync(fd.get()) == 0;
    const int write_errno = errno;
    const bool closed = ::close(fd.release()) == 0;
    if (!written || !closed || std::rename(temporary.c_str(), target.c_str()) != 0) {
        const int err = !written ? write_errno : errno;
        std::remove(temporary.c_str());
        throw fail(err);
    }
    if (!sync_folder(target.parent_path())) {
        throw fail(errno);
    }
}

}  // namespace ppsbench::core
