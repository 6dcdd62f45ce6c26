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

// Creates `name` if nobody has: true when it is ours, false when it existed.
bool claim(const std::string& name) {
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ::close(fd);
        return true;
    }
    if (errno != EEXIST) {
        throw core::InputError(fmt::format(
            "{}: cannot create the default output in the current directory ({}); give -o "
            "FILE in a writable directory",
            name, core::errno_message(errno)));
    }
    return false;
}

// Tries `names_at(time)` at successive milliseconds until every name is claimed together.
template <std::size_t N, typename NamesAt>
std::array<std::string, N> claim_names(std::string_view prefix, NamesAt names_at) {
    // Another run holding this millisecond's name: the next millisecond is ours to try.
    for (int attempt = 0; attempt < 1000; ++attempt) {
        const std::array<std::string, N> names = names_at(compact_time_ms(core::realtime_now_ns()));
        std::size_t claimed = 0;
        const auto let_go = [&] {
            for (std::size_t i = 0; i < claimed; ++i) {
                ::unlink(names[i].c_str());  // half a pair is no use: let it go
            }
        };
        try {
            while (claimed < N && claim(names[claimed])) {
                ++claimed;
            }
        } catch (...) {
            let_go();
            throw;
        }
        if (claimed == N) {
            return names;
        }
        let_go();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    throw core::InputError(fmt::format(
        "no free default output name {}<UTC time>.csv in the current directory after 1000 tries; "
        "give -o FILE",
        prefix));
}

}  // namespace

std::string claim_default_output(std::string_view prefix) {
    return claim_names<1>(prefix, [&](const std::string& time) {
        return std::array<std::string, 1>{fmt::format("{}{}.csv", prefix, time)};
    })[0];
}

std::array<std::string, 2> claim_default_output_pair(std::string_view prefix) {
    return claim_names<2>(prefix, [&](const std::string& time) {
        return std::array<std::string, 2>{fmt::format("{}{}-1.csv", prefix, time),
                                          fmt::format("{}{}-2.csv", prefix, time)};
    });
}

}  // namespace ppsbench::session
