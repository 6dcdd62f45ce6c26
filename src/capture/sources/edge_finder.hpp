// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the polled-edge reference's core (docs/latency.md "Bias against a polled pin").
// It predicts each edge from its own last edges, busy-polls the level in a window around the
// prediction on the periods a fixed pattern chooses, and brackets the edge between the last
// read that saw the old level and the first that saw the new one.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "level_reader.hpp"

namespace ppsbench::capture::detail {

// Where the edge lies: after `before_ns` (the clock read before the last read that saw the old
// level) and before `after_ns` (the clock read after the first read that saw the new one).
struct EdgeBracket {
    std::int64_t before_ns = 0;
    std::int64_t after_ns = 0;
    std::int64_t reads = 0;             // level reads in the window
    std::int64_t read_interval_ns = 0;  // the window's mean time per read
    // The reference time: the bracket's midpoint; its uncertainty: half the bracket.
    std::int64_t midpoint_ns() const { return before_ns + (after_ns - before_ns) / 2; }
    std::int64_t uncertainty_ns() const { return (after_ns - before_ns + 1) / 2; }
};

enum class WindowResult {
    found,
    already_new,  // the first read saw the new level: the window opened after the edge
    no_edge,      // the window closed without a change
};

struct WindowOutcome {
    WindowResult result = WindowResult::no_edge;
    EdgeBracket bracket;
};

// Busy-polls until the level becomes `to_high` (rising) or low, or the clock passes `end_ns`.
// With `wait_for_old_level` (the search), reads that see the new level first are skipped until
// the old level shows; otherwise such a first read is `already_new`.
WindowOutcome poll_window(LevelReader& reader, PollClock& clock, bool to_high, std::int64_t end_ns,
                          bool wait_for_old_level = false);

// Which periods are polled: "10" (alternate, the default) polls period 0, 2, 4 ...; "1" every
// one; "100" one in three. Throws core::UsageError naming `spec` for anything else.
class PollPattern {
  public:
    explicit PollPattern(std::string pattern, const std::string& spec);
    bool polled(std::uint64_t period_index) const;
    // The first polled period after `period_index`.
    std::uint64_t next_after(std::uint64_t period_index) const;
    std::size_t length() const { return pattern_.size(); }
    const std::string& text() const { return pattern_; }

  private:
    std::string pattern_;
};

// Predicts the next polled edge from the path's own edges: the last edge plus the mean period of
// the last few (the nominal one until there are two), so this path never waits on the other.
class EdgePredictor {
  public:
    explicit EdgePredictor(std::int64_t nominal_period_ns) : nominal_(nominal_period_ns) {}
    void add(std::uint64_t period_index, std::int64_t edge_ns);
    bool locked() const { return !edges_.empty(); }
    void unlock() { edges_.clear(); }
    std::uint64_t last_index() const { return edges_.back().index; }
    std::int64_t predict(std::uint64_t period_index) const;
    std::int64_t period_ns() const;

  private:
    struct Edge {
        std::uint64_t index;
        std::int64_t ns;
    };
    std::int64_t nominal_;
    std::deque<Edge> edges_;
};

}  // namespace ppsbench::capture::detail
