// SPDX-License-Identifier: GPL-2.0-or-later
#include "gpio_v2_event_reader.hpp"

#include <algorithm>

#include "gpio_event_reader.hpp"

namespace ppsbench::capture {

std::uint64_t EdgeSequences::next(core::Edge edge, std::uint32_t line_seqno) {
    if (!both_) {
        return line_seqno;
    }
    const auto index = [](core::Edge e) { return e == core::Edge::assert_edge ? 0U : 1U; };
    // Events before the first one read (line_seqno counts from 1) alternate up to it; after
    // that, the unread ones alternate from the last edge read. Unsigned arithmetic: line_seqno
    // wraps at 2^32 (50 days of 1 kHz both-edge events), the gap is right across the wrap.
    const core::Edge other =
        edge == core::Edge::assert_edge ? core::Edge::clear_edge : core::Edge::assert_edge;
    if (!last_seqno_) {
        const std::uint32_t before = line_seqno - 1;
        counts_[index(edge)] = before / 2;
        counts_[index(other)] = before - before / 2;
    } else {
        const std::uint32_t unread = line_seqno - *last_seqno_ - 1;
        const core::Edge after_last = last_edge_ == core::Edge::assert_edge
                                          ? core::Edge::clear_edge
                                          : core::Edge::assert_edge;
        counts_[index(after_last)] += unread - unread / 2;
        counts_[index(last_edge_)] += unread / 2;
    }
    last_seqno_ = line_seqno;
    last_edge_ = edge;
    return ++counts_[index(edge)];
}

WaitResult GpioV2EventReader::wait(core::Duration timeout) {
    return detail::wait_for_line_events(fd_, timeout);
}

std::size_t GpioV2EventReader::read(std::span<core::Pulse> out, const std::string& what) {
    const std::size_t events = detail::read_line_events(
        fd_, raw_.data(), std::min(out.size(), raw_.size()), sizeof(gpio_v2_line_event), what);
    std::size_t written = 0;
    for (std::size_t i = 0; i < events; ++i) {
        const gpio_v2_line_event& event = raw_[i];
        const core::Edge edge = event.id == GPIO_V2_LINE_EVENT_RISING_EDGE ? core::Edge::assert_edge
                                                                           : core::Edge::clear_edge;
        const std::uint64_t sequence = sequences_.next(edge, event.line_seqno);
        if (!core::selects(edges_, edge)) {
            continue;
        }
        out[written++] = {sequence, static_cast<std::int64_t>(event.timestamp_ns), edge};
    }
    return written;
}

}  // namespace ppsbench::capture
