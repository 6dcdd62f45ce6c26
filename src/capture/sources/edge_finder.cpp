// SPDX-License-Identifier: GPL-2.0-or-later
#include "edge_finder.hpp"

#include <fmt/format.h>
#include <cerrno>
#include <ctime>

#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::capture::detail {

namespace {

// Enough edges to average a period over, few enough to follow a clock's frequency change.
constexpr std::size_t predictor_edges = 8;

class RealtimePollClock final : public PollClock {
  public:
    std::int64_t now_ns() override { return core::realtime_now_ns(); }
    bool sleep_until(std::int64_t realtime_ns) override {
        const timespec ts{static_cast<time_t>(realtime_ns / core::ns_per_second),
                          static_cast<long>(realtime_ns % core::ns_per_second)};
        return clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, nullptr) != EINTR;
    }
};

}  // namespace

PollClock& realtime_poll_clock() {
    static RealtimePollClock clock;
    return clock;
}

WindowOutcome poll_window(LevelReader& reader, PollClock& clock, bool to_high, std::int64_t end_ns,
                          bool wait_for_old_level) {
    WindowOutcome outcome;
    const std::int64_t first_ns = clock.now_ns();
    std::int64_t before = first_ns;
    bool seen_old = false;
    for (;;) {
        const bool high = reader.level();
        const std::int64_t after = clock.now_ns();
        ++outcome.bracket.reads;
        if (high != to_high) {
            seen_old = true;
            outcome.bracket.before_ns = before;
        } else if (seen_old) {
            outcome.result = WindowResult::found;
            outcome.bracket.after_ns = after;
            outcome.bracket.read_interval_ns = (after - first_ns) / outcome.bracket.reads;
            return outcome;
        } else if (!wait_for_old_level) {
            outcome.result = WindowResult::already_new;
            return outcome;
        }
        if (after >= end_ns) {
            outcome.result = WindowResult::no_edge;
            return outcome;
        }
        before = after;
    }
}

PollPattern::PollPattern(std::string pattern, const std::string& spec)
    : pattern_(std::move(pattern)) {
    if (pattern_.empty() || pattern_.size() > 64 ||
        pattern_.find_first_not_of("01") != std::string::npos ||
        pattern_.find('1') == std::string::npos) {
        throw core::UsageError(fmt::format(
            "--source {}: pattern={}: give the polled periods as 1s and 0s, at least one 1, at "
            "most 64 (10 alternates, the default; 1 polls every period; 100 one in three)",
            spec, pattern_));
    }
}

bool PollPattern::polled(std::uint64_t period_index) const {
    return pattern_[period_index % pattern_.size()] == '1';
}

std::uint64_t PollPattern::next_after(std::uint64_t period_index) const {
    std::uint64_t next = period_index + 1;
    while (!polled(next)) {
        ++next;
    }
    return next;
}

void EdgePredictor::add(std::uint64_t period_index, std::int64_t edge_ns) {
    edges_.push_back({period_index, edge_ns});
    if (edges_.size() > predictor_edges) {
        edges_.pop_front();
    }
}

std::int64_t EdgePredictor::period_ns() const {
    if (edges_.size() < 2 || edges_.back().index == edges_.front().index) {
        return nominal_;
    }
    return (edges_.back().ns - edges_.front().ns) /
           static_cast<std::int64_t>(edges_.back().index - edges_.front().index);
}

std::int64_t EdgePredictor::predict(std::uint64_t period_index) const {
    const auto& last = edges_.back();
    return last.ns + static_cast<std::int64_t>(period_index - last.index) * period_ns();
}

}  // namespace ppsbench::capture::detail
