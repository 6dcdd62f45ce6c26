// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/log_samples.hpp"

#include <arpa/inet.h>

#include <cmath>

namespace ppsbench::chrony {
namespace {

// chronyd's reference ID as `chronyc -c tracking` prints it: an NTP server's IPv4 address, or a
// refclock's refid of up to four characters, left-aligned ("PPS" is 50505300).
std::uint32_t reference_id(const std::string& reference) {
    in_addr address{};
    if (::inet_pton(AF_INET, reference.c_str(), &address) == 1) {
        return ntohl(address.s_addr);
    }
    if (reference.size() > 4) {
        return 0;  // an IPv6 address: chrony's refid is a hash of it, not in the log
    }
    std::uint32_t id = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const auto c = i < reference.size() ? static_cast<unsigned char>(reference[i]) : 0U;
        id = (id << 8U) | c;
    }
    return id;
}

std::int64_t ns(double value) {
    return std::llround(value);
}

}  // namespace

std::vector<ChronySample> tracking_log_samples(const TrackingImport& log, std::int64_t first_ns,
                                               std::int64_t last_ns) {
    std::vector<ChronySample> samples;
    for (const auto& e : log.entries) {
        if (e.time_ns < first_ns || e.time_ns > last_ns) {
            continue;
        }
        ChronySample s;
        s.wall_time_ns = e.time_ns;
        TrackingSample t;
        t.ref_name = e.reference;
        t.ref_id = e.leap == LeapStatus::not_synchronised ? 0 : reference_id(e.reference);
        t.stratum = e.stratum;
        t.ref_time_ns = e.time_ns;
        // Both are chronyd's LCL_GetOffsetCorrection(): positive when the clock is slow.
        t.system_time_offset_ns = ns(e.remaining_correction_ns);
        t.last_offset_ns = ns(e.offset_ns);
        t.rms_offset_ns = ns(e.rms_offset_ns.value_or(0.0));
        t.frequency_ppm = e.frequency_ppm;
        t.skew_ppm = e.frequency_error_ppm;
        t.root_delay_ns = ns(e.root_delay_ns);
        t.root_dispersion_ns = ns(e.root_dispersion_ns);
        t.leap = e.leap;
        const bool synchronised = e.leap != LeapStatus::not_synchronised && e.rms_offset_ns;
        s.status = synchronised ? ChronyStatus::ok : ChronyStatus::not_synchronised;
        if (!synchronised) {
            s.detail = "tracking.log: chronyd had no reference (leap status ?)";
        }
        s.tracking = std::move(t);
        samples.push_back(std::move(s));
    }
    return samples;
}

}  // namespace ppsbench::chrony
