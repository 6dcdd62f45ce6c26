// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/capture_import.hpp"

#include <optional>

#include "ppsbench/stats/events.hpp"

namespace ppsbench::import {

GapCount count_gaps(std::span<const core::Pulse> pulses, std::int64_t period_ns) {
    // The rule `report` uses (stats::classify_interval), pair by pair in the order given, on
    // the nominal period: imported trains are realtime, so a time jump with contiguous
    // sequence numbers is a clock step, not missed pulses.
    GapCount count;
    const stats::IntervalRule rule{static_cast<double>(period_ns), period_ns, true};
    for (const auto edge : {core::Edge::assert_edge, core::Edge::clear_edge}) {
        const core::Pulse* previous = nullptr;
        const core::Pulse* current = nullptr;
        auto classify = [&](const core::Pulse* next) {
            stats::IntervalEvidence evidence{
                current->timestamp_ns - previous->timestamp_ns,
                stats::sequence_advance(previous->sequence, current->sequence), std::nullopt};
            if (next != nullptr) {
                evidence.next_interval_ns = next->timestamp_ns - current->timestamp_ns;
            }
            const stats::IntervalVerdict verdict = stats::classify_interval(evidence, rule);
            count.missed_pulses += verdict.missed;
            count.unseen_events += verdict.unseen;
        };
        for (const auto& p : pulses) {
            if (p.edge != edge) {
                continue;
            }
            if (previous != nullptr) {
                classify(&p);
            }
            previous = current;
            current = &p;
        }
        if (previous != nullptr) {
            classify(nullptr);
        }
    }
    return count;
}

}  // namespace ppsbench::import
