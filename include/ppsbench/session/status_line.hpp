// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <atomic>
#include <cstdio>
#include <optional>
#include <span>
#include <string>

#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/session/live_figure.hpp"
#include "ppsbench/stats/summary.hpp"

namespace ppsbench::session {

// The live status line (stderr, terminals only): elapsed / planned, pulses, missed, last
// offset, running σ and peak-to-peak. Redrawn at most about once a second; the running figures
// are updated for every pulse with a constant-memory accumulator.
class StatusLine {
  public:
    // `chrony_rms_ns`, when given, is read on every redraw (ChronyMonitor::no_value: none yet).
    StatusLine(std::FILE* stream, const capture::SourceInfo& source,
               const capture::CaptureLimits& limits,
               const std::atomic<std::int64_t>* chrony_rms_ns = nullptr);

    void update(std::span<const core::Pulse> batch, const capture::CaptureProgress& progress);
    // Clears the line so the summary starts on a clean one.
    void finish();

    // The text of one status line (without the carriage return), for tests.
    std::string render(const capture::CaptureProgress& progress) const;

  private:
    std::FILE* stream_;
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
