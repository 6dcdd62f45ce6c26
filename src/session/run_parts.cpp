// SPDX-License-Identifier: GPL-2.0-or-later
#include "session/run_parts.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>

#include "ppsbench/chrony/conf.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/pulse_sink.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"
#include "ppsbench/sysinfo/json.hpp"

namespace ppsbench::session {

nlohmann::json system_fingerprint(const capture::SourceInfo& source) {
    sysinfo::FingerprintOptions options;
    options.pulse_wait = std::chrono::milliseconds{0};  // the capture itself shows pulses
    options.device = source.pps_device;
    try {
        return sysinfo::to_json(sysinfo::read_fingerprint(options));
    } catch (const core::Error&) {
        return nullptr;  // e.g. a device path that is not /dev/ppsN: the capture still works
    }
}

std::optional<chrony::SamplerOptions> chrony_sampling(
    const RunOptions& options, const std::vector<const capture::SourceInfo*>& sources,
    const std::string& device) {
    const bool hardware = std::any_of(sources.begin(), sources.end(),
                                      [](const auto* info) { return info->host_hardware; });
    const bool sample_chrony = options.chrony == RunOptions::Chrony::on ||
                               (options.chrony == RunOptions::Chrony::automatic && hardware);
    if (!sample_chrony) {
        return std::nullopt;
    }
    auto sampler_options = options.chrony_sampler;
    if (sampler_options.device.empty()) {
        sampler_options.device = device;
    }
    return sampler_options;
}

std::vector<std::size_t> chrony_note_paths(const RunOptions& options,
                                           const std::array<const capture::SourceInfo*, 2>& info) {
    std::vector<std::size_t> matches;
    for (std::size_t i = 0; i < info.size(); ++i) {
        if (info[i]->pps_device.empty()) {
            continue;
        }
        std::optional<std::string> refid;
        try {
            refid = chrony::find_refclock_refid(options.chrony_sampler.chrony_conf,
                                                info[i]->pps_device);
        } catch (const core::Error&) {
            // No readable chrony.conf: which path is chrony's is unknown.
        }
        if (refid &&
            (options.chrony_sampler.refid.empty() || *refid == options.chrony_sampler.refid)) {
            matches.push_back(i);
        }
    }
    if (matches.size() == 1) {
        return matches;
    }
    return {0, 1};
}

LiveChronyRefclock live_chrony_refclock(const chrony::SamplerOptions& sampler) {
    LiveChronyRefclock refclock{sampler.refid, std::nullopt};
    // Unreadable files are skipped (read_chrony_conf): then no refclock is found.
    const auto found = chrony::find_pps_refclock(
        chrony::read_chrony_conf(sampler.chrony_conf, chrony::host_conf_files()).directives,
        sampler.device, sampler.refid);
    if (!found) {
        return refclock;
    }
    if (refclock.refid.empty()) {
        refclock.refid = found->refid;
    }
    // chrony.conf(5): `offset` defaults to 0; one that is not a finite number is unknown.
    refclock.offset_s = found->refclock.option("offset") ? found->refclock.number("offset")
                                                         : std::optional<double>(0.0);
    if (refclock.offset_s && !std::isfinite(*refclock.offset_s)) {
        refclock.offset_s.reset();
    }
    return refclock;
}

void stop_samplers(std::optional<ChronyMonitor>& chrony, std::optional<LiveMetrics>& live,
                   std::vector<std::string>& notices) {
    if (chrony) {
        chrony->stop();
        notices = chrony->notices();
        chrony.reset();
    }
    if (live) {
        live->stop();
    }
}

// Edges a device kept between open and the main loop start one path earlier than the other:
// a PTP channel's events are on from open and a GPIO line's from its request, and a PPS device
// hands over its latest edge when it is newer than the one seen at open; enable (the kernel
// fingerprint, the files) takes a while — 8 pulses of 100 ms in the lab's guest, where pairing
// then missed 8 (PTP's backlog) and then 1 (the PPS device's latest edge) of 300. Both paths
// begin at the next edge instead. A poll: path's wait() is its measurement, and simulations and
// replays keep nothing. Bounded, no allocation.
void discard_queued_edges(capture::PulseSource& source) {
    const std::string& kind = source.info().kind;
    if (kind != "ptp" && kind != "gpio" && kind != "pps") {
        return;
    }
    std::array<core::Pulse, core::max_pulses_per_write> scratch{};
    for (int batch = 0; batch < 64 && source.wait(core::Duration{0}) == capture::WaitResult::ready;
         ++batch) {
        source.read(scratch);
    }
}

}  // namespace ppsbench::session
