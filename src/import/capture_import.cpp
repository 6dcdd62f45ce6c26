#include "ppsbench/import/capture_import.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace ppsbench::import {

GapCount count_gaps(std::span<const core::Pulse> pulses, std::int64_t period_ns) {
    GapCount count;
    const double limit = 1.5 * static_cast<double>(period_ns);
    for (const auto edge : {core::Edge::assert_edge, core::Edge::clear_edge}) {
        std::optional<core::Pulse> previous;
        for (const auto& p : pulses) {
            if (p.edge != edge) {
                continue;
            }
            if (previous) {
                // No interrupt for more than 1.5 periods: that many pulses never arrived (at
                // least one).
                std::uint64_t by_time = 0;
                const auto interval = static_cast<double>(p.timestamp_ns - previous->timestamp_ns);
                if (interval > limit) {
                    const auto periods = std::llround(interval / static_cast<double>(period_ns));
                    by_time = static_cast<std::uint64_t>(std::max<long long>(periods - 1, 1));
                }
                // A sequence that does not increase (reset, wrap, none logged) is no evidence.
                const std::uint64_t by_sequence =
                    p.sequence > previous->sequence ? p.sequence - previous->sequence - 1 : 0;
                if (by_time > 0) {
                    count.missed_pulses += std::max(by_time, by_sequence);
                } else {
                    count.unseen_events += by_sequence;
                }
            }
            previous = p;
        }
    }
    return count;
}

store::RunMeta import_run_meta(std::string_view format, std::string label,
                               const std::vector<std::string>& files, core::EdgeSelection edges,
                               std::int64_t start_ns) {
    store::RunMeta meta;
    meta.label = std::move(label);
    meta.source = fmt::format("{}:{}", format, fmt::join(files, ","));
    meta.source_kind = std::string(format);
    meta.simulated = false;
    meta.edges = edges;
    meta.period = std::chrono::seconds{1};
    meta.clock = core::ClockId::realtime;
    meta.start_realtime_ns = start_ns;
    meta.start_time_precision = core::UtcPrecision::seconds;
    return meta;
}

}  // namespace ppsbench::import
