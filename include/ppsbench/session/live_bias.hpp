// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <span>

#include "ppsbench/analysis/calibration.hpp"
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
//
// Against a polled reference (poll:, which sees one kind of edge, on the periods it polls) the
// pairing is report's split: a path edge within half a period of a polled edge, each the
// other's nearest, is a polled pair (the disturbance, kept apart); any other waits until the
// reference has an edge after it, and is then measured against the edge interpolated between
// the polled edges around it (latency::interpolated_edge, report's definition), or counted
// unpaired when there is none. A clock step backwards leaves edges out of order in the rings:
// they wait until a ring gives them up, so the pairing loses at most a ring's worth of edges
// (counted unpaired) before it is in step again, and pairs nothing wrongly meanwhile.
//
// Besides the mean, each `filter_samples` consecutive pairs give one value of chrony's refclock
// filter (analysis::chrony_filtered_offset: the samples around the median, averaged): their
// mean is what `calibrate` gives as the constant, so a live figure that a calibrated offset is
// compared with (the PpsBiasBeyondCalibration rule) is the same statistic; on a skewed threaded
// path the plain mean lies microseconds away from it.
class LiveBias {
  public:
    enum class Side { path, reference };
    static constexpr std::size_t ring_size = 64;
    // chronyd's samples a poll with a `refclock PPS` line's defaults: calibrate's own default,
    // so the live figure and the constant group the pairs alike.
    static constexpr std::size_t filter_samples = analysis::CalibrationSettings{}.filter_samples;

    struct Window {
        // path − reference of each pair; against a polled reference, of the unpolled periods
        // (interpolated reference edges), the figure report's bias rows give
        stats::RunningSummary late_ns;
        stats::RunningSummary polled_late_ns;  // a polled reference's own periods only
        // One value a `filter_samples` group of late_ns, counted in the window it completes in.
        stats::RunningSummary filtered_ns;
        std::uint64_t unpaired = 0;  // the path's edges (and, every edge, the reference's)
    };

    // `polled_edge`: the reference is polled and brackets this edge only.
    explicit LiveBias(std::int64_t period_ns, std::optional<core::Edge> polled_edge = std::nullopt);
    bool polled() const { return polled_edge_.has_value(); }

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
    void add_polled(Side side, const Edge& edge);
    void resolve_polled();
    bool nearest_of_each_other(std::int64_t t, std::int64_t polled, bool& wait) const;
    void count_unpaired(std::uint64_t n);
    void pair(double late_ns);
    void pair_polled(double late_ns);

    const std::int64_t period_ns_;
    const std::int64_t half_period_ns_;
    const std::optional<core::Edge> polled_edge_;
    // The path's latest edge against a polled reference: polled edges before the last one at
    // or before it can no longer be the `before` of an interpolation.
    std::int64_t latest_path_ns_ = std::numeric_limits<std::int64_t>::min();
    // The path edge resolved before the oldest waiting one: a polled edge nearer to it than to
    // the waiting one is its pair, not the waiting one's (report pairs mutual nearest edges).
    std::int64_t previous_path_ns_ = std::numeric_limits<std::int64_t>::min();
    std::array<double, filter_samples> group_{};
    std::size_t group_count_ = 0;
    mutable std::mutex mutex_;
    // By Side. Against a polled reference: the path's edges waiting for the reference to pass
    // them, and the reference's edges an interpolation may still need.
    std::array<Ring, 2> unpaired_;
    Window current_;
    Window last_;
    Window run_;
};

}  // namespace ppsbench::session
