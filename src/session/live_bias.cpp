// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/live_bias.hpp"

#include <cstdlib>

namespace ppsbench::session {

void LiveBias::Ring::drop_oldest(std::size_t n) {
    first = (first + n) % ring_size;
    count -= n;
}

void LiveBias::Ring::push(const Edge& edge) {
    edges[(first + count) % ring_size] = edge;
    ++count;
}

LiveBias::LiveBias(std::int64_t period_ns) : half_period_ns_(period_ns / 2) {}

void LiveBias::add(Side side, std::span<const core::Pulse> batch) {
    const std::lock_guard lock(mutex_);
    for (const auto& pulse : batch) {
        add_one(side, {pulse.timestamp_ns, pulse.edge});
    }
}

// Each side's edges come in time order. The other side's unpaired edges older than this one's
// window can never be paired (this side's next edges are later still): dropped. The first of
// the rest within the window, of the same kind, is this edge's pair; those before it are
// dropped too. Without one, the edge waits for the other side, the oldest making room.
void LiveBias::add_one(Side side, const Edge& edge) {
    Ring& other = unpaired_[side == Side::path ? 1 : 0];
    Ring& own = unpaired_[side == Side::path ? 0 : 1];
    std::size_t stale = 0;
    while (stale < other.count && other.at(stale).time_ns < edge.time_ns - half_period_ns_) {
        ++stale;
    }
    for (std::size_t i = stale; i < other.count; ++i) {
        const Edge& candidate = other.at(i);
        if (candidate.time_ns > edge.time_ns + half_period_ns_) {
            break;
        }
        if (candidate.edge == edge.edge) {
            const std::int64_t reference = side == Side::path ? candidate.time_ns : edge.time_ns;
            const std::int64_t path = side == Side::path ? edge.time_ns : candidate.time_ns;
            count_unpaired(i);
            other.drop_oldest(i + 1);
            pair(static_cast<double>(path - reference));
            return;
        }
    }
    count_unpaired(stale);
    other.drop_oldest(stale);
    if (own.count == ring_size) {
        count_unpaired(1);
        own.drop_oldest(1);
    }
    own.push(edge);
}

void LiveBias::count_unpaired(std::uint64_t n) {
    current_.unpaired += n;
    run_.unpaired += n;
}

void LiveBias::pair(double late_ns) {
    current_.late_ns.add(late_ns);
    run_.late_ns.add(late_ns);
}

void LiveBias::close_interval() {
    const std::lock_guard lock(mutex_);
    last_ = current_;
    current_ = Window{};
}

LiveBias::Window LiveBias::last() const {
    const std::lock_guard lock(mutex_);
    return last_;
}

LiveBias::Window LiveBias::run() const {
    const std::lock_guard lock(mutex_);
    return run_;
}

}  // namespace ppsbench::session
