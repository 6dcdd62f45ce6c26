// SPDX-License-Identifier: GPL-2.0-or-later
#include "wait_readable.hpp"

#include <cerrno>
#include <ctime>

namespace ppsbench::capture::detail {

WaitResult wait_readable(int fd, short events, core::Duration timeout) {
    pollfd poll_fd{fd, events, 0};
    const auto ns = timeout.count();
    const timespec limit{static_cast<time_t>(ns / core::ns_per_second),
                         static_cast<long>(ns % core::ns_per_second)};
    const int rc = ::ppoll(&poll_fd, 1, &limit, nullptr);
    if (rc < 0) {
        return errno == EINTR ? WaitResult::interrupted : WaitResult::end_of_stream;
    }
    if (rc == 0) {
        return WaitResult::timeout;
    }
    return (poll_fd.revents & events) != 0 ? WaitResult::ready : WaitResult::end_of_stream;
}

}  // namespace ppsbench::capture::detail
