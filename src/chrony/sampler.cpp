// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/sampler.hpp"

#include <fmt/format.h>
#include <array>
#include <utility>

#include "ppsbench/chrony/conf.hpp"
#include "ppsbench/core/error.hpp"

#include "ppsbench/core/clock.hpp"

namespace ppsbench::chrony {
namespace {

constexpr std::array<std::pair<ChronyStatus, std::string_view>, 7> status_names{{
    {ChronyStatus::ok, "ok"},
    {ChronyStatus::chronyc_missing, "chronyc-missing"},
    {ChronyStatus::chronyd_not_running, "chronyd-not-running"},
    {ChronyStatus::not_synchronised, "not-synchronised"},
    {ChronyStatus::died, "died"},
    {ChronyStatus::not_responding, "not-responding"},
    {ChronyStatus::unexpected_output, "unexpected-output"},
}};

constexpr std::array<std::pair<PpsPick, std::string_view>, 3> pick_names{{
    {PpsPick::none, "none"},
    {PpsPick::refid, "refid"},
    {PpsPick::selected, "selected"},
}};

std::string socket_name(const ChronycOptions& options) {
    return options.socket.empty() ? std::string("chronyc's default socket") : options.socket;
}

}  // namespace

std::string_view to_string(ChronyStatus status) {
    for (const auto& [s, name] : status_names) {
        if (s == status) {
            return name;
        }
    }
    return "unknown";
}

std::optional<ChronyStatus> parse_chrony_status(std::string_view text) {
    for (const auto& [s, name] : status_names) {
        if (name == text) {
            return s;
        }
    }
    return std::nullopt;
}

std::string_view to_string(PpsPick pick) {
    for (const auto& [p, name] : pick_names) {
        if (p == pick) {
            return name;
        }
    }
    return "unknown";
}

std::optional<PpsPick> parse_pps_pick(std::string_view text) {
    for (const auto& [p, name] : pick_names) {
        if (name == text) {
            return p;
        }
    }
    return std::nullopt;
}

std::optional<std::int64_t> ChronySample::rms_offset_ns() const {
    if (status != ChronyStatus::ok || !tracking) {
        return std::nullopt;
    }
    return tracking->rms_offset_ns;
}

ChronySampler::ChronySampler(SamplerOptions options) : options_(std::move(options)) {
    refid_ = options_.refid;
    if (refid_.empty() && !options_.device.empty()) {
        refid_ = find_refclock_refid(options_.chrony_conf, options_.device).value_or("");
    }
}

bool ChronySampler::due(std::chrono::steady_clock::time_point now) const {
    return !last_sample_at_ || now - *last_sample_at_ >= options_.interval;
}

ChronySample ChronySampler::classify_failure(const ChronycResult& result,
                                             std::int64_t wall_time_ns) const {
    ChronySample s;
    s.wall_time_ns = wall_time_ns;
    s.detail = result.detail;
    switch (result.outcome) {
        case ChronycOutcome::missing:
            s.status = ChronyStatus::chronyc_missing;
            break;
        case ChronycOutcome::no_daemon:
            s.status = reached_chronyd_ ? ChronyStatus::died : ChronyStatus::chronyd_not_running;
            break;
        case ChronycOutcome::timed_out:
            s.status = ChronyStatus::not_responding;
            break;
        case ChronycOutcome::ok:
        case ChronycOutcome::failed:
            s.status = ChronyStatus::unexpected_output;
            break;
    }
    return s;
}

void ChronySampler::pick_pps(ChronySample& sample) {
    // Sources and sourcestats list the same sources in the same order, but match by name
    // anyway: a source can come or go between the two calls.
    const auto sources_run = run_chronyc(options_.chronyc, "sources");
    const auto stats_run = run_chronyc(options_.chronyc, "sourcestats");
    if (sources_run.outcome != ChronycOutcome::ok || stats_run.outcome != ChronycOutcome::ok) {
        // chronyd answered `tracking` a moment ago; losing it now is the next sample's news.
        return;
    }
    const auto sources = parse_sources(sources_run.out);
    const auto stats = parse_sourcestats(stats_run.out);

    const SourceRow* chosen = nullptr;
    if (!refid_.empty()) {
        for (const auto& row : sources) {
            if (row.mode == SourceMode::refclock && row.name == refid_) {
                chosen = &row;
                sample.pps_pick = PpsPick::refid;
                break;
            }
        }
    }
    if (chosen == nullptr) {
        for (const auto& row : sources) {
            if (row.state == SourceState::selected) {
                chosen = &row;
                sample.pps_pick = PpsPick::selected;
                break;
            }
        }
    }
    if (chosen == nullptr) {
        return;
    }
    sample.pps_source = *chosen;
    for (const auto& row : stats) {
        if (row.name == chosen->name) {
            sample.pps_stats = row;
            break;
        }
    }
}

ChronySample ChronySampler::sample() {
    last_sample_at_ = std::chrono::steady_clock::now();
    const auto wall = core::realtime_now_ns();
    const auto tracking_run = run_chronyc(options_.chronyc, "tracking");

    ChronySample s;
    if (tracking_run.outcome != ChronycOutcome::ok) {
        s = classify_failure(tracking_run, wall);
    } else {
        s.wall_time_ns = wall;
        reached_chronyd_ = true;
        try {
            s.tracking = parse_tracking(tracking_run.out);
            pick_pps(s);
            if (s.tracking->synchronised()) {
                s.status = ChronyStatus::ok;
            } else {
                s.status = ChronyStatus::not_synchronised;
                s.detail = fmt::format("leap status {}, reference {}", to_string(s.tracking->leap),
                                       s.tracking->ref_id_hex());
            }
        } catch (const core::InputError& e) {
            s.status = ChronyStatus::unexpected_output;
            s.detail = e.what();
        }
    }

    notice_.reset();
    const bool changed = last_status_ ? *last_status_ != s.status : s.status != ChronyStatus::ok;
    if (changed) {
        notice_ = message_for(s);
    }
    last_status_ = s.status;
    return s;
}

std::string ChronySampler::message_for(const ChronySample& s) const {
    const auto& c = options_.chronyc;
    switch (s.status) {
        case ChronyStatus::ok:
            return fmt::format("chrony: chronyd is synchronised again (reference {} {})",
                               s.tracking->ref_id_hex(), s.tracking->ref_name);
        case ChronyStatus::chronyc_missing:
            return fmt::format(
                "chrony: {}; install chrony (apt install chrony) or pass --chrony off", s.detail);
        case ChronyStatus::chronyd_not_running:
            return fmt::format(
                "chrony: chronyd is not running or refuses {} ({}); start chronyd, point "
                "--chrony-socket at its bindcmdaddress, or pass --chrony off",
                socket_name(c), s.detail);
        case ChronyStatus::not_synchronised:
            return fmt::format(
                "chrony: chronyd is not synchronised ({}); chrony figures are left out until it "
                "selects a source",
                s.detail);
        case ChronyStatus::died:
            return fmt::format(
                "chrony: chronyd stopped answering mid-run on {} ({}); the capture goes on "
                "without chrony figures",
                socket_name(c), s.detail);
        case ChronyStatus::not_responding:
            return fmt::format("chrony: {}; chronyd may be stopped or overloaded", s.detail);
        case ChronyStatus::unexpected_output:
            return fmt::format("chrony: unexpected chronyc output ({}); is chrony 4.x installed?",
                               s.detail);
    }
    return "chrony: unknown state";
}

}  // namespace ppsbench::chrony
