// SPDX-License-Identifier: GPL-2.0-or-later
#include "poll_source.hpp"

#include <fmt/format.h>
#include <cmath>

#include "gpio_source.hpp"
#include "mem_level_reader.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {

namespace {

constexpr std::array<std::string_view, 2> poll_columns{"poll_uncertainty_ns",
                                                       "poll_read_interval_ns"};
// After this many polled windows in a row without the edge the prediction is dropped and the
// next edge searched for over a whole period again.
constexpr unsigned misses_before_search = 3;

}  // namespace

PollSource::PollSource(std::string spec, const PollSpec& poll, const SourceOptions& options,
                       std::unique_ptr<detail::LevelReader> reader, detail::PollClock& clock)
    : reader_(std::move(reader)),
      clock_(clock),
      pattern_(poll.pattern, spec),
      predictor_(options.period.count()),
      window_ns_(poll.window.count()),
      to_high_(options.edges != core::EdgeSelection::clear_only),
      edge_(to_high_ ? core::Edge::assert_edge : core::Edge::clear_edge) {
    if (options.edges == core::EdgeSelection::both) {
        throw core::UsageError(fmt::format(
            "--source {}: --edge both: a polled reference brackets one edge; give --edge assert "
            "or clear (the one the PPS path captures)",
            spec));
    }
    if (2 * window_ns_ >= options.period.count()) {
        throw core::UsageError(fmt::format("--source {}: window={} must be under half the period",
                                           spec, core::format_duration_option(poll.window)));
    }
    info_.spec = std::move(spec);
    info_.kind = "poll";
    info_.clock = core::ClockId::realtime;
    info_.edges = options.edges;
    info_.period = options.period;
    // Only the pattern's periods are polled: one sample per polled period, never a missed
    // pulse in between.
    info_.cadence = core::Cadence::sampled;
    info_.poll = options.period * static_cast<std::int64_t>(pattern_.length());
    info_.sequences = core::SequenceEvidence::synthetic;
    info_.host_hardware = true;
    info_.hardware_reference = true;
    info_.details = {
        {"backend", poll.backend == PollSpec::Backend::memory ? "memory" : "gpio-line"},
        {"pattern", pattern_.text()},
        {"window_ns", window_ns_},
        {"sequence", "the period's index from the first edge found, plus one"}};
    if (poll.backend == PollSpec::Backend::memory) {
        info_.details["device"] = poll.device;
        info_.details["offset"] = poll.offset;
        info_.details["bit"] = poll.bit;
        if (!poll.preset.empty()) {
            info_.details["preset"] = poll.preset;
        }
    } else {
        info_.details["chip"] = poll.chip;
        info_.details["line"] = poll.line;
    }
}

std::span<const std::string_view> PollSource::extra_columns() const {
    return poll_columns;
}

void PollSource::accept(std::uint64_t period_index, const detail::EdgeBracket& bracket) {
    pending_ = core::Pulse{period_index + 1, bracket.midpoint_ns(), edge_};
    extras_ = {bracket.uncertainty_ns(), bracket.read_interval_ns};
    have_pending_ = true;
    predictor_.add(period_index, bracket.midpoint_ns());
    next_index_ = pattern_.next_after(period_index);
    consecutive_misses_ = 0;
}

WaitResult PollSource::search(std::int64_t deadline_ns) {
    if (!searching_) {
        searching_ = true;
        search_end_ns_ = clock_.now_ns() + info_.period.count() + 2 * window_ns_;
    }
    const auto outcome = detail::poll_window(*reader_, clock_, to_high_,
                                             std::min(deadline_ns, search_end_ns_), true);
    if (outcome.result == detail::WindowResult::found) {
        searching_ = false;
        std::uint64_t index = 0;
        if (predictor_.locked()) {
            // Found again after misses: keep counting periods from the first edge.
            const double periods =
                static_cast<double>(outcome.bracket.midpoint_ns() -
                                    predictor_.predict(predictor_.last_index())) /
                static_cast<double>(predictor_.period_ns());
            index = predictor_.last_index() + static_cast<std::uint64_t>(std::llround(periods));
            predictor_.unlock();
        }
        accept(index, outcome.bracket);
        return WaitResult::ready;
    }
    if (clock_.now_ns() >= search_end_ns_) {
        searching_ = false;  // a whole period without the edge: search again on the next call
    }
    return WaitResult::timeout;
}

WaitResult PollSource::poll_next(std::int64_t now_ns, std::int64_t deadline_ns) {
    std::int64_t predicted = predictor_.predict(next_index_);
    // Windows that closed while nobody waited (a slow consumer) are missed, not polled late.
    while (predicted + window_ns_ < now_ns) {
        ++missed_windows_;
        next_index_ = pattern_.next_after(next_index_);
        predicted = predictor_.predict(next_index_);
    }
    const std::int64_t start = predicted - window_ns_;
    if (start > deadline_ns) {
        return clock_.sleep_until(deadline_ns) ? WaitResult::timeout : WaitResult::interrupted;
    }
    if (start > now_ns && !clock_.sleep_until(start)) {
        return WaitResult::interrupted;
    }
    const auto outcome =
        detail::poll_window(*reader_, clock_, to_high_, predicted + window_ns_, false);
    if (outcome.result == detail::WindowResult::found) {
        accept(next_index_, outcome.bracket);
        return WaitResult::ready;
    }
    ++missed_windows_;
    next_index_ = pattern_.next_after(next_index_);
    if (++consecutive_misses_ >= misses_before_search) {
        consecutive_misses_ = 0;
        searching_ = false;
        search_end_ns_ = 0;
        locked_after_misses_ = true;
    }
    return WaitResult::timeout;
}

WaitResult PollSource::wait(core::Duration timeout) {
    if (have_pending_) {
        return WaitResult::ready;
    }
    const std::int64_t now = clock_.now_ns();
    const std::int64_t deadline = now + timeout.count();
    if (!predictor_.locked() || locked_after_misses_) {
        const WaitResult result = search(deadline);
        if (result == WaitResult::ready) {
            locked_after_misses_ = false;
        }
        return result;
    }
    return poll_next(now, deadline);
}

std::size_t PollSource::read(std::span<core::Pulse> out) {
    if (out.empty() || !have_pending_) {
        return 0;
    }
    out[0] = pending_;
    have_pending_ = false;
    return 1;
}

std::unique_ptr<PulseSource> open_poll_source(std::string_view spec, std::string_view rest,
                                              const SourceOptions& options) {
    const PollSpec poll = parse_poll_spec(rest);
    std::unique_ptr<detail::LevelReader> reader;
    if (poll.backend == PollSpec::Backend::memory) {
        reader = std::make_unique<detail::MemLevelReader>(std::string(spec), poll.device,
                                                          poll.offset, poll.bit);
    } else {
        reader = open_gpio_level_reader(std::string(spec), GpioLineSpec{poll.chip, poll.line});
    }
    return std::make_unique<PollSource>(std::string(spec), poll, options, std::move(reader));
}

}  // namespace ppsbench::capture
