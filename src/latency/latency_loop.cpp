// SPDX-License-Identifier: GPL-2.0-or-later
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

// Why the loop stops before driving the next edge, if it does.
std::optional<capture::StopReason> limit_reached(const LatencyProgress& progress,
                                                 const LatencyLimits& limits,
                                                 capture::StopFlag stop) {
    if (stop_requested(stop)) {
        return capture::StopReason::interrupted;
    }
    if (limits.count && progress.records >= *limits.count) {
        return capture::StopReason::count_reached;
    }
    if (limits.duration && progress.elapsed >= *limits.duration) {
        return capture::StopReason::duration_elapsed;
    }
    return std::nullopt;
}

// After a stall (the process was descheduled for longer than an interval) resume the cadence
// from now instead of firing a burst of late edges back to back. Timer overshoot (always a
// little) must not shift the cadence, so only a whole missed interval resynchronises.
std::int64_t next_deadline(std::int64_t woke_ns, std::int64_t deadline_ns,
                           std::int64_t interval_ns) {
    return (woke_ns >= deadline_ns + interval_ns ? woke_ns : deadline_ns) + interval_ns;
}

// Records the event of the driven edge among the events just read. It must be of the driven
// edge and not older than the drive time stamp: anything else (a second event, a bounce, a
// leftover) is counted as stray and skipped. Returns whether the edge was recorded.
bool record_driven_edge(std::span<const core::Pulse> events, core::Edge edge, std::int64_t drive_ns,
                        std::int64_t wake_ns, LatencySink& sink, LatencyProgress& progress) {
    bool matched = false;
    for (const core::Pulse& pulse : events) {
        if (matched || pulse.edge != edge || pulse.timestamp_ns < drive_ns) {
            ++progress.stray_events;
            continue;
        }
        sink.write(LatencyRecord{pulse, drive_ns, wake_ns});
        ++progress.records;
        matched = true;
    }
    return matched;
}

// The input side of the loop, as waiting for one edge needs it.
struct SensePath {
    capture::PulseSource& source;
    std::span<core::Pulse> buffer;
    LoopClock& clock;
    core::ClockId event_clock;  // the source's timestamps' clock, for the wake-up time
    capture::StopFlag stop;
};

// The edge just set on the output: which one, when (on the sense clock), and when the next is
// due (CLOCK_MONOTONIC), which is as long as its event may take.
struct DrivenEdge {
    core::Edge edge;
    std::int64_t drive_ns;
    std::int64_t deadline_ns;
};

// Blocks in the sense source's wait for the event of the driven edge, and records it.
Outcome await_edge(const SensePath& sense, const DrivenEdge& driven, LatencySink& sink,
                   LatencyProgress& progress) {
    for (;;) {
        const std::int64_t remaining =
            driven.deadline_ns - sense.clock.now(core::ClockId::monotonic);
        const auto result = sense.source.wait(core::Duration{std::max<std::int64_t>(remaining, 0)});
        const std::int64_t wake_ns = sense.clock.now(sense.event_clock);
        switch (result) {
            case capture::WaitResult::timeout:
                return Outcome::unseen;
            case capture::WaitResult::end_of_stream:
                return Outcome::ended;
            case capture::WaitResult::interrupted:
                // A signal, or (PPS) a fetch that returned an edge we do not capture, or a
                // timeout shorter than a kernel tick, which PPS_FETCH does not wait for.
                if (stop_requested(sense.stop)) {
                    return Outcome::stopped;
                }
                if (sense.clock.now(core::ClockId::monotonic) >= driven.deadline_ns) {
                    return Outcome::unseen;
                }
                continue;
            case capture::WaitResult::ready:
                break;
        }
        const std::size_t n = sense.source.read(sense.buffer);
        if (record_driven_edge(sense.buffer.first(n), driven.edge, driven.drive_ns, wake_ns, sink,
                               progress)) {
            return Outcome::recorded;
        }
    }
}

// An edge the sense path did not report in time is counted; when the first edges all go
// unseen, the wiring is wrong and the loop says so.
void count_unseen_edge(LatencyProgress& progress, const LatencyLimits& limits,
                       const capture::SourceInfo& info) {
    ++progress.unseen_edges;
    if (progress.records == 0 && progress.unseen_edges >= limits.silent_edges_allowed) {
        throw core::InputError(
            fmt::format("{}: no event for {} driven edges; check the jumper wire from the drive "
                        "line to this input, and that --edge matches what the input captures",
                        info.spec, progress.unseen_edges));
    }
}

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
    const SensePath sense_path{sense, buffer, clock, info.clock, stop};

    for (;;) {
        progress.elapsed = core::Duration{clock.now(core::ClockId::monotonic) - started_ns};
        if (const auto reason = limit_reached(progress, limits, stop)) {
            progress.stop_reason = *reason;
            break;
        }
        if (!clock.sleep_until(deadline_ns) && clock.now(core::ClockId::monotonic) < deadline_ns) {
            continue;  // a signal: re-check the stop flag
        }
        deadline_ns = next_deadline(clock.now(core::ClockId::monotonic), deadline_ns, interval_ns);

        level = !level;
        const core::Edge edge = level ? core::Edge::assert_edge : core::Edge::clear_edge;
        const bool expected = core::selects(info.edges, edge);
        const std::int64_t drive_ns = clock.now(info.clock);
        drive.set(level);
        ++progress.edges_driven;
        if (!expected) {
            continue;
        }
        const Outcome outcome =
            await_edge(sense_path, {edge, drive_ns, deadline_ns}, sink, progress);
        if (outcome == Outcome::unseen) {
            count_unseen_edge(progress, limits, info);
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
