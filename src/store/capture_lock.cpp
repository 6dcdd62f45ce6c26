// SPDX-License-Identifier: GPL-2.0-or-later
#include "store/capture_lock.hpp"

#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

namespace ppsbench::store::detail {

namespace {

bool regular_file(int fd) {
    struct stat st {};
    return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

// "ppsbench run -o lock.csv" from /proc/PID/cmdline, at most ~100 characters.
std::string command_line_of(long pid) {
    std::ifstream in(fmt::format("/proc/{}/cmdline", pid), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    while (!text.empty() && text.back() == '\0') {
        text.pop_back();
    }
    for (char& c : text) {
        if (c == '\0') {
            c = ' ';
        }
    }
    if (const auto slash = text.find_last_of('/', text.find(' ')); slash != std::string::npos) {
        text.erase(0, slash + 1);  // the program's name without its directory
    }
    constexpr std::size_t most = 100;
    if (text.size() > most) {
        text = text.substr(0, most) + "...";
    }
    return text;
}

}  // namespace

bool try_lock_for_writing(int fd) {
    if (!regular_file(fd)) {
        return true;
    }
    for (int attempt = 0; attempt < 5; ++attempt) {
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
            return true;
        }
        if (errno != EWOULDBLOCK && errno != EINTR) {
            return true;  // a file system without flock: nothing to take, nothing to refuse
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

bool is_being_written(int fd) {
    if (!regular_file(fd)) {
        return false;
    }
    if (::flock(fd, LOCK_SH | LOCK_NB) == 0) {
        ::flock(fd, LOCK_UN);
        return false;
    }
    return errno == EWOULDBLOCK;
}

std::string lock_holder(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        return "another process";
    }
    // /proc/locks: "1: FLOCK  ADVISORY  WRITE 4711 fd:01:1234 0 EOF"; "->" marks a waiter.
    const std::string file_id =
        fmt::format("{:02x}:{:02x}:{}", major(st.st_dev), minor(st.st_dev), st.st_ino);
    std::ifstream locks("/proc/locks");
    std::string line;
    while (std::getline(locks, line)) {
        std::istringstream fields(line);
        std::string id;
        std::string type;
        std::string mode;
        std::string access;
        long pid = 0;
        std::string file;
        fields >> id >> type;
        if (type == "->") {
            continue;
        }
        fields >> mode >> access >> pid >> file;
        if (type == "FLOCK" && access == "WRITE" && file == file_id && pid > 0) {
            const std::string command = command_line_of(pid);
            return command.empty() ? fmt::format("pid {}", pid)
                                   : fmt::format("pid {} ({})", pid, command);
        }
    }
    return "another process";
}

}  // namespace ppsbench::store::detail
