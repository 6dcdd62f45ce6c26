// SPDX-License-Identifier: GPL-2.0-or-later
#include "replay_source.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <ctime>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_reader.hpp"

#include "ppsbench/core/clock.hpp"

namespace ppsbench::capture {

ReplaySource::ReplaySource(std::string spec, const std::string& path, const SourceOptions& options)
    : file_(store::read_capture_file(path)) {
    info_.spec = std::move(spec);
    info_.kind = "replay";
    info_.simulated = file_.run_meta.simulated;
    info_.paced = options.pace_realtime;
    info_.endless = false;
    info_.edges = options.edges;
    info_.clock = file_.run_meta.clock;
    // The file's own period: replaying pulses 1 s apart as a 100 ms train makes every interval
    // a "clock step" and σ 0.
    info_.period = file_.run_meta.period;
    if (options.period_given && options.period != file_.run_meta.period) {
        throw core::UsageError(fmt::format(
            "--period {}: {} records a period of {}, and a replay keeps it; leave --period out",
            core::format_duration_option(options.period), path,
            core::format_duration_option(file_.run_meta.period)));
    }
    info_.cadence = file_.run_meta.cadence;
    info_.poll = file_.run_meta.poll;
    info_.sequences = file_.run_meta.sequences;
    info_.details = {{"file", path}, {"recorded", file_.meta}};
    // Keep only the edges asked for, so "--edge clear" on a both-edge capture works.
    std::erase_if(file_.pulses,
                  [&](const core::Pulse& p) { return !core::selects(options.edges, p.edge); });
    if (!file_.pulses.empty()) {
        first_ns_ = file_.pulses.front().timestamp_ns;
    }
    started_mono_ns_ = core::monotonic_now_ns();
}

WaitResult ReplaySource::wait(core::Duration timeout) {
    if (next_ >= file_.pulses.size()) {
        return WaitResult::end_of_stream;
    }
    if (!info_.paced) {
        return WaitResult::ready;
    }
    const std::int64_t due = started_mono_ns_ + (file_.pulses[next_].timestamp_ns - first_ns_);
    const std::int64_t now = core::monotonic_now_ns();
    const bool in_time = due - now <= timeout.count();
    const std::int64_t wake = in_time ? due : now + timeout.count();
    timespec ts{static_cast<time_t>(wake / core::ns_per_second),
                static_cast<long>(wake % core::ns_per_second)};
    if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
        return WaitResult::interrupted;
    }
    return in_time ? WaitResult::ready : WaitResult::timeout;
}

std::size_t ReplaySource::read(std::span<core::Pulse> out) {
    std::size_t available = file_.pulses.size() - next_;
    if (info_.paced) {
        available = std::min<std::size_t>(available, 1);
    }
    const std::size_t n = std::min(out.size(), available);
    std::copy_n(file_.pulses.begin() + static_cast<std::ptrdiff_t>(next_), n, out.begin());
    next_ += n;
    return n;
}

}  // namespace ppsbench::capture
