// SPDX-License-Identifier: GPL-2.0-or-later
#include "session/run_parts.hpp"

#include <algorithm>
#include <chrono>

#include "ppsbench/core/error.hpp"
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

}  // namespace ppsbench::session
