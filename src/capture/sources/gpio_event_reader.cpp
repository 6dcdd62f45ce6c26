// SPDX-License-Identifier: GPL-2.0-or-later
#include "gpio_event_reader.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>

#include "ppsbench/core/error.hpp"
#include "wait_readable.hpp"

namespace ppsbench::capture {

namespace detail {

WaitResult wait_for_line_events(int fd, core::Duration timeout) {
    // POLLHUP/POLLERR with nothing to read is the end of the stream.
    return wait_readable(fd, POLLIN | POLLPRI, timeout);
}

std::size_t read_line_events(int fd, void* into, std::size_t records, std::size_t size,
                             const std::string& what) {
    ssize_t n = 0;
    do {
        n = ::read(fd, into, records * size);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        if (errno == EAGAIN) {
            return 0;
        }
        throw core::MeasurementError(
            fmt::format("{}: reading line events failed mid-run ({}); the pulses captured so far "
                        "are kept",
                        what, core::errno_message(errno)));
    }
    // The kernel only hands out whole events.
    return static_cast<std::size_t>(n) / size;
}

}  // namespace detail

WaitResult GpioEventReader::wait(core::Duration timeout) {
    return detail::wait_for_line_events(fd_, timeout);
}

std::size_t GpioEventReader::read(std::span<core::Pulse> out, const std::string& what) {
    const std::size_t events = detail::read_line_events(
        fd_, raw_.data(), std::min(out.size(), raw_.size()), sizeof(gpioevent_data), what);
    std::size_t written = 0;
    for (std::size_t i = 0; i < events; ++i) {
        const bool rising = raw_[i].id == GPIOEVENT_EVENT_RISING_EDGE;
        const core::Edge edge = rising ? core::Edge::assert_edge : core::Edge::clear_edge;
        auto& count = rising ? assert_count_ : clear_count_;
        ++count;
        if (!core::selects(edges_, edge)) {
            continue;
        }
        out[written++] = {count, static_cast<std::int64_t>(raw_[i].timestamp), edge};
    }
    return written;
}

}  // namespace ppsbench::capture
