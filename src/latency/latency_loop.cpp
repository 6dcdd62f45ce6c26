#include "ppsbench/latency/latency_loop.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "ppsbench/core/error.hpp"

namespace ppsbench::latency {

namespace {

bool stop_requested(capture::StopFlag stop) {
    return stop != nullptr && *stop;
}

enum class Outcome { recorded, unseen, stopped, ended };

}  // namespace

LatencyProgress run_latency(OutputLine& drive, capture::PulseSource& sense, LatencySink& sink,
                            const LatencyLimits& limits, capture::StopFlag stop, LoopClock& clock) {
    const capture::SourceInfo& info = sense.info();
    const std::int64_t interval_ns = limits.interval.count();
    std::array<core::Pulse, 16> buffer{};
    LatencyProgress progress;

    // Start low, and drop whatever the sense source queued before the run (the edge of our own
    // initial set, or a user's earlier test), so the first record is a fresh edge.
    drive.set(false);
    const std::int64_t started_ns = clock.now(core::ClockId::monotonic);
    clock.sleep_until(started_ns + interval_ns);
    while (sense.wait(core::Duration{0}) == capture::WaitResult::ready && sense.read(buffer) > 0) {
    }
    std::int64_t deadline_ns = clock.now(core::ClockId::monotonic) + interval_ns;
    bool level = false;

    // Waits for the event of the edge just driven; the next edge is due at the next deadline.
    const auto await_edge = [&](core::Edge edge, std::int64_t drive_ns) -> Outcome {
        for (;;) {
            const std::int64_t remaining = deadline_ns - clock.now(core::ClockId::monotonic);
            const auto result = sense.wait(core::Duration{std::max<std::int64_t>(remaining, 0)});
            const std::int64_t wake_ns = clock.now(info.clock);
            switch (result) {
                case capture::WaitResult::timeout:
                    return Outcome::unseen;
                case capture::WaitResult::end_of_stream:
                    return Outcome::ended;
                case capture::WaitResult::interrupted:
                    // A signal, or (PPS) a fetch that returned an edge we do not capture, or a
                    // timeout shorter than a kernel tick, which PPS_FETCH does not wait for.
                    if (stop_requested(stop)) {
                        return Outcome::stopped;
                    }
                    if (clock.now(core::ClockId::monotonic) >= deadline_ns) {
                        return Outcome::unseen;
                    }
                    continue;
                case capture::WaitResult::ready:
                    break;
            }
            const std::size_t n = sense.read(buffer);
            bool matched = false;
            for (std::size_t i = 0; i < n; ++i) {
                const core::Pulse& pulse = buffer[i];
                // The event must be of the driven edge and not older than the drive time stamp:
                // anything else is a bounce or a leftover, counted and skipped.
                if (matched || pulse.edge != edge || pulse.timestamp_ns < drive_ns) {
                    ++progress.stray_events;
                    continue;
                }
                sink.write(LatencyRecord{pulse, drive_ns, wake_ns});
                ++progress.records;
                matched = true;
            }
            if (matched) {
                return Outcome::recorded;
            }
        }
    };

    for (;;) {
        progress.elapsed = core::Duration{clock.now(core::ClockId::monotonic) - started_ns};
        if (stop_requested(stop)) {
            progress.stop_reason = capture::StopReason::interrupted;
            break;
        }
        if (limits.count && progress.records >= *limits.count) {
            progress.stop_reason = capture::StopReason::count_reached;
            break;
        }
        if (limits.duration && progress.elapsed >= *limits.duration) {
            progress.stop_reason = capture::StopReason::duration_elapsed;
            break;
        }
        if (!clock.sleep_until(deadline_ns) && clock.now(core::ClockId::monotonic) < deadline_ns) {
            continue;  // a signal: re-check the stop flag
        }
        // After a stall (the process was descheduled for longer than an interval) resume the
        // cadence from now instead of firing a burst of late edges back to back.
        // Timer overshoot (always a little) must not shift the cadence, so only a whole missed
        // interval resynchronises.
        const std::int64_t woke_ns = clock.now(core::ClockId::monotonic);
        deadline_ns = (woke_ns >= deadline_ns + interval_ns ? woke_ns : deadline_ns) + interval_ns;

        level = !level;
        const core::Edge edge = level ? core::Edge::assert_edge : core::Edge::clear_edge;
        const bool expected = core::selects(info.edges, edge);
        const std::int64_t drive_ns = clock.now(info.clock);
        drive.set(level);
        ++progress.edges_driven;
        if (!expected) {
            continue;
        }
        const Outcome outcome = await_edge(edge, drive_ns);
        if (outcome == Outcome::unseen) {
            ++progress.unseen_edges;
            if (progress.records == 0 && progress.unseen_edges >= limits.silent_edges_allowed) {
                throw core::InputError(fmt::format(
                    "{}: no event for {} driven edges; check the jumper wire from the drive "
                    "line to this input, and that --edge matches what the input captures",
                    info.spec, progress.unseen_edges));
            }
        } else if (outcome == Outcome::stopped) {
            progress.stop_reason = capture::StopReason::interrupted;
            break;
        } else if (outcome == Outcome::ended) {
            progress.stop_reason = capture::StopReason::end_of_stream;
            break;
        }
    }
    drive.set(false);
    progress.elapsed = core::Duration{clock.now(core::ClockId::monotonic) - started_ns};
    return progress;
}

}  // namespace ppsbench::latency
