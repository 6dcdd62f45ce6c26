// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/summary.hpp"

#include <algorithm>

namespace ppsbench::chrony {

ChronySummary summarize(std::span<const ChronySample> samples) {
    ChronySummary s;
    s.samples = samples.size();
    double rms_sum = 0.0;
    double std_dev_sum = 0.0;
    std::size_t std_dev_count = 0;
    for (const auto& sample : samples) {
        if (s.changes.empty() || s.changes.back().status != sample.status) {
            s.changes.push_back({sample.wall_time_ns, sample.status, sample.detail});
        }
        s.final_status = sample.status;
        if (sample.status != ChronyStatus::ok || !sample.tracking) {
            continue;
        }
        ++s.synchronised_samples;
        s.end = sample.tracking;
        rms_sum += static_cast<double>(sample.tracking->rms_offset_ns);
        s.rms_offset_max_ns =
            std::max(s.rms_offset_max_ns.value_or(0), sample.tracking->rms_offset_ns);
        if (sample.pps_source) {
            s.pps_source = sample.pps_source;
            s.pps_pick = sample.pps_pick;
            s.pps_stats_end = sample.pps_stats;
        }
        if (sample.pps_stats) {
            std_dev_sum += static_cast<double>(sample.pps_stats->std_dev_ns);
            ++std_dev_count;
        }
    }
    if (s.synchronised_samples > 0) {
        s.rms_offset_mean_ns = rms_sum / static_cast<double>(s.synchronised_samples);
    }
    if (std_dev_count > 0) {
        s.pps_std_dev_mean_ns = std_dev_sum / static_cast<double>(std_dev_count);
    }
    return s;
}

}  // namespace ppsbench::chrony
