// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <atomic>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/session/live_figure.hpp"
#include "ppsbench/stats/summary.hpp"

namespace ppsbench::session {

// The live status line (stderr, terminals only): elapsed / planned, pulses, missed, last
// offset, running σ and peak-to-peak. Redrawn at most about once a second; the running figures
// are updated for every pulse with a constant-memory accumulator.
//
// A two-path run has one line per path, each drawn by its own capture thread: path A's on the
// cursor's line, path B's on the line below it (the cursor goes down and back up within one
// write, so the two threads' writes never interleave), each starting with its path's name.
struct StatusRow {
    std::string name;  // "A", "B"; empty for a single run (no name, one line)
    int row = 0;       // 0: the cursor's line, 1: the line below
};

class StatusLine {
  public:
    // `chrony_rms_ns`, when given, is read on every redraw (ChronyMonitor::no_value: none yet).
    StatusLine(std::FILE* stream, const capture::SourceInfo& source,
               const capture::CaptureLimits& limits,
               const std::atomic<std::int64_t>* chrony_rms_ns = nullptr, StatusRow row = {});

    void update(std::span<const core::Pulse> batch, const capture::CaptureProgress& progress);
    // Clears the line so the summary starts on a clean one.
    void finish();

    // The text of one status line (without the carriage return), for tests.
    std::string render(const capture::CaptureProgress& progress) const;

  private:
    // One write of `text` on this line's row, the cursor left where it was.
    void draw(std::string_view text);

    std::FILE* stream_;
    StatusRow row_;
    LiveFigure figure_;
    bool simulated_;
    const std::atomic<std::int64_t>* chrony_rms_ns_;
    std::optional<core::Duration> planned_;
    std::optional<std::uint64_t> planned_count_;
    stats::RunningSummary running_;
    std::optional<double> last_offset_ns_;
    std::int64_t last_draw_ns_ = 0;
    bool drawn_ = false;
};

}  // namespace ppsbench::session
