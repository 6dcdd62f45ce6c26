// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>

#include "edge_finder.hpp"
#include "level_reader.hpp"
#include "poll_spec.hpp"
#include "ppsbench/capture/source_factory.hpp"

namespace ppsbench::capture {

// The polled-edge reference, "poll:…" (docs/latency.md): the pin's level read in a busy loop
// around each predicted edge on the periods its pattern chooses, each read bracketed by
// CLOCK_REALTIME reads. Each pulse is the bracket's midpoint, with half the bracket as its
// uncertainty and the window's time per read beside it (extra columns). It is the reference of
// a two-source run: the other path's bias is measured against it. Unlike every other source,
// wait() spins on the CPU during a window (and during the first, full-period search): that is
// the method, and why it is only a reference for a measurement, never a PPS source for chrony.
class PollSource final : public PulseSource {
  public:
    // The level reader and clock are the hardware; tests pass doubles.
    PollSource(std::string spec, const PollSpec& poll, const SourceOptions& options,
               std::unique_ptr<detail::LevelReader> reader,
               detail::PollClock& clock = detail::realtime_poll_clock());

    WaitResult wait(core::Duration timeout) override;
    std::size_t read(std::span<core::Pulse> out) override;
    const SourceInfo& info() const override { return info_; }
    std::span<const std::string_view> extra_columns() const override;
    std::span<const std::int64_t> last_extras() const override { return extras_; }

    // Polled windows that closed without the edge (a miss is counted, never fatal).
    std::uint64_t missed_windows() const { return missed_windows_; }

  private:
    WaitResult search(std::int64_t deadline_ns);
    WaitResult poll_next(std::int64_t now_ns, std::int64_t deadline_ns);
    void accept(std::uint64_t period_index, const detail::EdgeBracket& bracket);

    SourceInfo info_;
    std::unique_ptr<detail::LevelReader> reader_;
    detail::PollClock& clock_;
    detail::PollPattern pattern_;
    detail::EdgePredictor predictor_;
    std::int64_t window_ns_;
    bool to_high_;
    core::Edge edge_;
    bool searching_ = false;
    std::int64_t search_end_ns_ = 0;
    std::uint64_t next_index_ = 0;
    std::uint64_t missed_windows_ = 0;
    unsigned consecutive_misses_ = 0;
    bool locked_after_misses_ = false;  // searching again, keeping the period count
    bool have_pending_ = false;
    core::Pulse pending_{};
    std::array<std::int64_t, 2> extras_{};
};

// Opens the level reader `poll` names (a GPIO line through libgpiod, or a gpiomem register)
// and the source on it.
std::unique_ptr<PulseSource> open_poll_source(std::string_view spec, std::string_view rest,
                                              const SourceOptions& options);

}  // namespace ppsbench::capture
