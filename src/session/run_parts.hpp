// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What a single run and a two-path run share beyond CapturePath: the kernel fingerprint, the
// decision to sample chrony, and the order helpers stop in. Private to session/.

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ppsbench/capture/pulse_source.hpp"
#include "ppsbench/chrony/sampler.hpp"
#include "ppsbench/session/chrony_monitor.hpp"
#include "ppsbench/session/live_metrics.hpp"
#include "ppsbench/session/run_session.hpp"

namespace ppsbench::session {

// The kernel, PREEMPT_RT and IRQ-threading fingerprint (ppsbench doctor's), recorded with every
// capture from this host's hardware so reports can say what configuration a row measured; null
// when it cannot be read.
nlohmann::json system_fingerprint(const capture::SourceInfo& source);

// chronyd is sampled when asked (--chrony on) or, by default, beside this host's own hardware
// (any of `sources`): a simulation's or replay's pulses have nothing to do with this host's
// chronyd. The refclock looked up is `device` unless a refid was given. nullopt: no sampling.
std::optional<chrony::SamplerOptions> chrony_sampling(
    const RunOptions& options, const std::vector<const capture::SourceInfo*>& sources,
    const std::string& device);

// The paths whose file gets chronyd's notes in a two-path run: the one whose device is a
// refclock in `options.chrony_sampler.chrony_conf` (with a refid given, the one whose refclock
// has that refid), else both, since which path chrony follows is then unknown.
std::vector<std::size_t> chrony_note_paths(const RunOptions& options,
                                           const std::array<const capture::SourceInfo*, 2>& info);

// The run's PPS refclock as chrony.conf (`sampler.chrony_conf` and what it includes) names it:
// by `sampler.refid` when given, else the `refclock PPS sampler.device` line. For the live file.
LiveChronyRefclock live_chrony_refclock(const chrony::SamplerOptions& sampler);

// chrony first, then the live figures: their last update includes chrony's final sample.
void stop_samplers(std::optional<ChronyMonitor>& chrony, std::optional<LiveMetrics>& live,
                   std::vector<std::string>& notices);

// Drops the edges a device kept since open (ptp, gpio, pps) so a two-path run's paths begin at
// the same edge (run_parts.cpp says why).
void discard_queued_edges(capture::PulseSource& source);

}  // namespace ppsbench::session
