// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What a run's chrony samples add up to, for the report's "chrony" object.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ppsbench/chrony/sampler.hpp"

namespace ppsbench::chrony {

// A state change in the series: the report lists each once, in order.
struct StatusChange {
    std::int64_t wall_time_ns = 0;
    ChronyStatus status = ChronyStatus::ok;
    std::string detail;

    friend bool operator==(const StatusChange&, const StatusChange&) = default;
};

struct ChronySummary {
    std::size_t samples = 0;
    std::size_t synchronised_samples = 0;  // status ok
    ChronyStatus final_status = ChronyStatus::chronyd_not_running;
    // Every change of status, starting with the first sample's status.
    std::vector<StatusChange> changes;

    // From the last synchronised sample ("at the end of the run"); nullopt when there was none.
    std::optional<TrackingSample> end;
    // Mean and maximum of chrony's RMS offset over the synchronised samples, each sample
    // weighted equally (samples are evenly spaced by --chrony-interval).
    std::optional<double> rms_offset_mean_ns;
    std::optional<std::int64_t> rms_offset_max_ns;

    // The PPS refclock (or selected source) at the last synchronised sample that had one.
    std::optional<SourceRow> pps_source;
    std::optional<SourceStatsRow> pps_stats_end;
    PpsPick pps_pick = PpsPick::none;
    // Mean of the sourcestats standard deviation over the samples that had it.
    std::optional<double> pps_std_dev_mean_ns;

    std::optional<std::int64_t> rms_offset_end_ns() const {
        return end ? std::optional<std::int64_t>(end->rms_offset_ns) : std::nullopt;
    }
};

ChronySummary summarize(std::span<const ChronySample> samples);

}  // namespace ppsbench::chrony
