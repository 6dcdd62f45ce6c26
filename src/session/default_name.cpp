// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/default_name.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <thread>

#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/utc_time.hpp"

namespace ppsbench::session {

namespace {

// "20260101T000000.123Z": fixed width, so names sort as times do.
std::string compact_time_ms(std::int64_t ns) {
    std::string seconds = core::format_utc_compact(ns);  // "20260101T000000Z"
    seconds.pop_back();
    const auto ms =
        (ns % core::ns_per_second + core::ns_per_second) % core::ns_per_second / 1'000'000;
    return fmt::format("{}.{:03}Z", seconds, ms);
}

}  // namespace

std::string claim_default_output(std::string_view prefix) {
    // Another run holding this millisecond's name: the next millisecond is ours to try.
    for (int attempt = 0; attempt < 1000; ++attempt) {
        std::string name =
            fmt::format("{}{}.csv", prefix, compact_time_ms(core::realtime_now_ns()));
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) {
            ::close(fd);
            return name;
        }
        if (errno != EEXIST) {
            throw core::InputError(fmt::format(
                "{}: cannot create the default output in the current directory ({}); give -o "
                "FILE in a writable directory",
                name, core::errno_message(errno)));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    throw core::InputError(fmt::format(
        "no free default output name {}<UTC time>.csv in the current directory after 1000 tries; "
        "give -o FILE",
        prefix));
}

}  // namespace ppsbench::session
