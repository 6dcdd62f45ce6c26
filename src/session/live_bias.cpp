// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/live_bias.hpp"

#include <cstdlib>

#include "ppsbench/latency/paired.hpp"

namespace ppsbench::session {

void LiveBias::Ring::drop_oldest(std::size_t n) {
    first = (first + n) % ring_size;
    count -= n;
}

void LiveBias::Ring::push(const Edge& edge) {
    edges[(first + count) % ring_size] = edge;
    ++count;
}

LiveBias::LiveBias(std::int64_t period_ns, std::optional<core::Edge> polled_edge)
    : period_ns_(period_ns), half_period_ns_(period_ns / 2), polled_edge_(polled_edge) {}

void LiveBias::add(Side side, std::span<const core::Pulse> batch) {
    const std::lock_guard lock(mutex_);
    for (const auto& pulse : batch) {
        if (polled_edge_) {
            add_polled(side, {pulse.timestamp_ns, pulse.edge});
        } else {
            add_one(side, {pulse.timestamp_ns, pulse.edge});
        }
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

// A poll reference takes the run's --edge like its PPS path (and refuses both edges), so a path
// edge of the other kind has no polled counterpart: not counted. A side a whole ring ahead gives
// up its oldest edge (a path edge counted unpaired).
void LiveBias::add_polled(Side side, const Edge& edge) {
    if (edge.edge != *polled_edge_) {
        return;
    }
    if (side == Side::path) {
        latest_path_ns_ = edge.time_ns;
    }
    Ring& own = unpaired_[side == Side::path ? 0 : 1];
    if (own.count == ring_size) {
        if (side == Side::path) {
            count_unpaired(1);
            previous_path_ns_ = own.at(0).time_ns;
        }
        own.drop_oldest(1);
    }
    own.push(edge);
    resolve_polled();
}

// Whether the polled edge within half a period of path edge t is t's pair: report pairs each
// polled edge with its nearest path edge (the earlier on a tie). The path edge before t is
// known; the one after can be nearer only when t is before the polled edge, and then t waits
// for it.
bool LiveBias::nearest_of_each_other(std::int64_t t, std::int64_t polled, bool& wait) const {
    const std::int64_t distance = std::llabs(t - polled);
    if (previous_path_ns_ != std::numeric_limits<std::int64_t>::min() &&
        std::llabs(polled - previous_path_ns_) <= distance) {
        return false;
    }
    if (t < polled) {
        const Ring& path = unpaired_[0];
        if (path.count < 2) {
            wait = true;
            return false;
        }
        return path.at(1).time_ns - polled >= distance;
    }
    return true;
}

// The path's waiting edges in order; the reference's ring holds its edges in order, the first
// of them the last at or before the oldest waiting path edge.
void LiveBias::resolve_polled() {
    Ring& path = unpaired_[0];
    Ring& polled = unpaired_[1];
    while (path.count > 0) {
        const std::int64_t t = path.at(0).time_ns;
        std::size_t next = 0;  // the first polled edge after t
        while (next < polled.count && polled.at(next).time_ns <= t) {
            ++next;
        }
        std::optional<std::int64_t> near;
        if (next > 0 && t - polled.at(next - 1).time_ns < half_period_ns_) {
            near = polled.at(next - 1).time_ns;
        } else if (next < polled.count && polled.at(next).time_ns - t < half_period_ns_) {
            near = polled.at(next).time_ns;
        }
        bool wait = false;
        if (near && nearest_of_each_other(t, *near, wait)) {
            pair_polled(static_cast<double>(t - *near));
        } else if (wait || next == polled.count) {
            break;  // the reference, or the path's next edge, has not reached this period yet
        } else if (const auto edge = next == 0 ? std::nullopt
                                               : latency::interpolated_edge(
                                                     polled.at(next - 1).time_ns,
                                                     polled.at(next).time_ns, t, period_ns_)) {
            pair(static_cast<double>(t - *edge));
        } else {
            count_unpaired(1);  // before the reference's first edge, or across missed windows
        }
        previous_path_ns_ = t;
        path.drop_oldest(1);
    }
    const std::int64_t horizon = path.count > 0 ? path.at(0).time_ns : latest_path_ns_;
    std::size_t stale = 0;
    while (stale + 1 < polled.count && polled.at(stale + 1).time_ns <= horizon) {
        ++stale;
    }
    polled.drop_oldest(stale);
}

void LiveBias::count_unpaired(std::uint64_t n) {
    current_.unpaired += n;
    run_.unpaired += n;
}

void LiveBias::pair(double late_ns) {
    current_.late_ns.add(late_ns);
    run_.late_ns.add(late_ns);
    group_[group_count_++] = late_ns;
    if (group_count_ == filter_samples) {
        const double filtered = analysis::chrony_filtered_offset(group_);  // sorts the array
        current_.filtered_ns.add(filtered);
        run_.filtered_ns.add(filtered);
        group_count_ = 0;
    }
}

void LiveBias::pair_polled(double late_ns) {
    current_.polled_late_ns.add(late_ns);
    run_.polled_late_ns.add(late_ns);
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
