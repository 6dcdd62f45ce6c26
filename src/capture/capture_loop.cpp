// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/capture/capture_loop.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <ctime>

#include "ppsbench/core/error.hpp"

#include "ppsbench/core/clock.hpp"

namespace ppsbench::capture {

namespace {

// The loop's steps below take references or values and allocate nothing, so the per-pulse path
// stays allocation-free (tests/capture/no_allocation_test.cpp checks it).

using namespace std::chrono_literals;

std::string no_pulse_hint(const SourceInfo& info, core::Duration waited) {
    if (!info.pps_device.empty()) {
        return fmt::format(
            "{}: no pulse within {}; check the GPS has a fix, the PPS wiring and the "
            "device tree/overlay, and that 'ppstest {}' shows pulses",
            info.spec, core::format_duration(waited), info.pps_device);
    }
    return fmt::format("{}: no pulse within {}; check that the signal is connected", info.spec,
                       core::format_duration(waited));
}

// Counts edges the kernel saw but we never read, per edge, from the sequence numbers.
class SequenceTracker {
  public:
    std::uint64_t missed(const core::Pulse& pulse) {
        auto& last = pulse.edge == core::Edge::assert_edge ? last_assert_ : last_clear_;
        std::uint64_t gap = 0;
        if (last && pulse.sequence > *last + 1) {
            gap = pulse.sequence - *last - 1;
        }
        last = pulse.sequence;
        return gap;
    }

    std::uint64_t missed(std::span<const core::Pulse> batch) {
        std::uint64_t gaps = 0;
        for (const auto& pulse : batch) {
            gaps += missed(pulse);
        }
        return gaps;
    }

  private:
    std::optional<std::uint64_t> last_assert_;
    std::optional<std::uint64_t> last_clear_;
};

// How long one wait may block: a second, so the progress callback runs while nothing comes, and
// no longer than what is left of a paced run's duration.
core::Duration wait_timeout(const SourceInfo& info, const CaptureLimits& limits,
                            const CaptureProgress& progress) {
    core::Duration timeout = 1s;
    if (info.paced && limits.duration) {
        timeout = std::min(timeout, *limits.duration - progress.elapsed);
    }
    return timeout;
}

// A wait that passed with no pulse: before the first pulse it counts towards giving up with a
// hint (no GPS fix, wiring), after it as a timeout of a silent source mid-run.
void note_timeout(CaptureProgress& progress, const CaptureLimits& limits, const SourceInfo& info,
                  std::int64_t started_ns) {
    if (progress.pulses == 0) {
        const core::Duration waited_for{core::monotonic_now_ns() - started_ns};
        if (waited_for >= limits.first_pulse_timeout) {
            throw core::InputError(no_pulse_hint(info, waited_for));
        }
    } else {
        ++progress.timeouts;
    }
}

// How many of a batch lie inside the duration on the pulses' own time line (a fast simulation
// or replay). Half a period of slack, so jitter on the first pulse does not add or drop one:
// an hour of 1 Hz pulses is 3600 pulses.
std::size_t pulses_within_duration(std::span<const core::Pulse> batch,
                                   std::int64_t first_timestamp_ns, core::Duration duration,
                                   core::Duration period) {
    const std::int64_t last_allowed_ns = duration.count() - period.count() / 2;
    return static_cast<std::size_t>(std::find_if(batch.begin(), batch.end(),
                                                 [&](const core::Pulse& p) {
                                                     return p.timestamp_ns - first_timestamp_ns >=
                                                            last_allowed_ns;
                                                 }) -
                                    batch.begin());
}

}  // namespace

CaptureProgress run_capture(PulseSource& source, core::PulseSink& sink, const CaptureLimits& limits,
                            StopFlag stop, const ProgressCallback& on_progress) {
    const SourceInfo& info = source.info();
    std::array<core::Pulse, core::max_pulses_per_write> buffer{};
    CaptureProgress progress;
    SequenceTracker sequences;
    const std::int64_t started_ns = core::monotonic_now_ns();
    std::optional<std::int64_t> first_timestamp;
    // A device or paced source is timed by the wall clock; a fast simulation or replay by its own
    // pulses, so "--duration 1h" means an hour of pulses either way.
    const auto wall_elapsed = [&] { return core::Duration{core::monotonic_now_ns() - started_ns}; };

    for (;;) {
        if (stop != nullptr && *stop) {
            progress.stop_reason = StopReason::interrupted;
            break;
        }
        if (info.paced) {
            progress.elapsed = wall_elapsed();
        }
        if (limits.duration && progress.elapsed >= *limits.duration) {
            progress.stop_reason = StopReason::duration_elapsed;
            break;
        }
        const WaitResult waited = source.wait(wait_timeout(info, limits, progress));
        if (waited == WaitResult::end_of_stream) {
            progress.stop_reason = StopReason::end_of_stream;
            break;
        }
        if (waited == WaitResult::timeout || waited == WaitResult::interrupted) {
            if (waited == WaitResult::timeout) {
                note_timeout(progress, limits, info, started_ns);
            }
            if (on_progress) {
                on_progress({}, progress);
            }
            continue;
        }

        std::size_t n = source.read(buffer);
        if (limits.count) {
            n = static_cast<std::size_t>(
                std::min<std::uint64_t>(n, *limits.count - progress.pulses));
        }
        bool past_duration = false;
        if (!info.paced && n > 0) {
            if (!first_timestamp) {
                first_timestamp = buffer[0].timestamp_ns;
            }
            if (limits.duration) {
                const std::size_t read_count = n;
                n = pulses_within_duration(std::span(buffer.data(), n), *first_timestamp,
                                           *limits.duration, info.period);
                past_duration = n < read_count;
            }
        }
        const std::span<const core::Pulse> batch(buffer.data(), n);
        sink.write(batch);
        progress.missed_pulses += sequences.missed(batch);
        progress.pulses += n;
        if (!info.paced && !batch.empty()) {
            progress.elapsed = core::Duration{batch.back().timestamp_ns - *first_timestamp};
        }
        if (on_progress) {
            on_progress(batch, progress);
        }
        if (limits.count && progress.pulses >= *limits.count) {
            progress.stop_reason = StopReason::count_reached;
            break;
        }
        if (past_duration) {
            progress.stop_reason = StopReason::duration_elapsed;
            break;
        }
    }
    if (info.paced) {
        progress.elapsed = wall_elapsed();
    }
    return progress;
}

}  // namespace ppsbench::capture
