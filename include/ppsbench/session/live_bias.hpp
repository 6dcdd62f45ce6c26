// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>

#include "ppsbench/core/pulse.hpp"
#include "ppsbench/stats/summary.hpp"

namespace ppsbench::session {

// The bias of a two-path run while it runs (issue 24, track): each edge of the measured path
// paired with the reference's edge of the same kind within half a period, as they arrive, and
// path − reference summed per interval and over the run. The two capture threads deliver in
// their own time, so either side's edge may come first: each side keeps its unpaired edges in
// a ring of fixed size (no allocation per pulse), and an edge the other side has passed without
// a match is dropped, counted as unpaired. `report` pairs the whole files afterwards; its
// figures are the reference, these are for watching a running monitor.
class LiveBias {
  public:
    enum class Side { path, reference };
    static constexpr std::size_t ring_size = 64;

    struct Window {
        stats::RunningSummary late_ns;  // path − reference of each pair
        std::uint64_t unpaired = 0;
    };

    explicit LiveBias(std::int64_t period_ns);

    // A capture thread, after each batch: one lock, no allocation.
    void add(Side side, std::span<const core::Pulse> batch);
    // The worker, at each interval's end: the interval just closed becomes `last`.
    void close_interval();
    Window last() const;
    Window run() const;

  private:
    struct Edge {
        std::int64_t time_ns = 0;
        core::Edge edge = core::Edge::assert_edge;
    };
    struct Ring {
        std::array<Edge, ring_size> edges{};
        std::size_t first = 0;  // oldest
        std::size_t count = 0;
        const Edge& at(std::size_t i) const { return edges[(first + i) % ring_size]; }
        void drop_oldest(std::size_t n);
        void push(const Edge& edge);
    };
    void add_one(Side side, const Edge& edge);
    void count_unpaired(std::uint64_t n);
    void pair(double late_ns);

    const std::int64_t half_period_ns_;
    mutable std::mutex mutex_;
    std::array<Ring, 2> unpaired_;  // by Side
    Window current_;
    Window last_;
    Window run_;
};

}  // namespace ppsbench::session
