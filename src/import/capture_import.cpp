#include "ppsbench/import/capture_import.hpp"

#include <fmt/format.h>

#include <chrono>

#include "ppsbench/stats/events.hpp"

namespace ppsbench::import {

GapCount count_gaps(std::span<const core::Pulse> pulses, std::int64_t period_ns) {
    GapCount count;
    for (const auto edge : {core::Edge::assert_edge, core::Edge::clear_edge}) {
        std::vector<std::int64_t> times;
        std::vector<std::uint64_t> sequences;
        for (const auto& p : pulses) {
            if (p.edge == edge) {
                times.push_back(p.timestamp_ns);
                sequences.push_back(p.sequence);
            }
        }
        const auto missed =
            stats::find_missed_pulses(times, sequences, static_cast<double>(period_ns), period_ns);
        for (const auto& gap : missed.gaps) {
            if (gap.missed_by_time > 0) {
                count.missed_pulses += gap.missed;
            } else {
                count.unseen_events += gap.missed_by_sequence;
            }
        }
    }
    return count;
}

std::string utc_iso8601(std::int64_t ns) {
    const auto tp = std::chrono::sys_time<std::chrono::nanoseconds>(std::chrono::nanoseconds(ns));
    const auto day = std::chrono::floor<std::chrono::days>(tp);
    const std::chrono::year_month_day ymd{day};
    const std::chrono::hh_mm_ss hms{std::chrono::floor<std::chrono::seconds>(tp - day)};
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", static_cast<int>(ymd.year()),
                       static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                       hms.hours().count(), hms.minutes().count(), hms.seconds().count());
}

}  // namespace ppsbench::import
