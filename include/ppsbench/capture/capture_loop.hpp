// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>

#include "ppsbench/capture/pulse_source.hpp"
#include "ppsbench/core/pulse_sink.hpp"
#include "ppsbench/store/stop_reason.hpp"

namespace ppsbench::capture {

// Why the loop stopped; the capture file's end record stores it (store/stop_reason.hpp).
using store::StopReason;
using store::to_string;

struct CaptureLimits {
    std::optional<std::uint64_t> count;
    std::optional<core::Duration> duration;
    // How long to wait for the first pulse before giving up with a hint (no GPS fix, wiring).
    core::Duration first_pulse_timeout = std::chrono::seconds{3};
};

// Running totals, handed to the progress callback and returned at the end.
struct CaptureProgress {
    std::uint64_t pulses = 0;
    // Edges the kernel counted but this process never read (sequence gaps).
    std::uint64_t missed_pulses = 0;
    // Waits that ended with no pulse after the first one (a silent source mid-run).
    std::uint64_t timeouts = 0;
    core::Duration elapsed{0};
    StopReason stop_reason = StopReason::end_of_stream;
};

// Called after every batch of pulses, and at least about once a second while waiting, so a
// status line can update. Runs on the capture thread: keep it cheap and allocation-free.
using ProgressCallback =
    std::function<void(std::span<const core::Pulse> batch, const CaptureProgress& progress)>;

// Asks the loop to stop; set from a signal handler, read between waits.
using StopFlag = const volatile bool*;

// The capture loop: wait in the kernel, read into a fixed buffer (core::max_pulses_per_write),
// hand to the sink, repeat.
// Nothing is allocated per pulse. A timeout or a missed pulse is counted, not thrown; no pulse at
// all within first_pulse_timeout throws core::InputError with what to check. Errors from the
// source mid-run (core::MeasurementError) propagate after the sink has every pulse read so far.
CaptureProgress run_capture(PulseSource& source, core::PulseSink& sink, const CaptureLimits& limits,
                            StopFlag stop, const ProgressCallback& on_progress = {});

}  // namespace ppsbench::capture
