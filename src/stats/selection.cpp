#include "selection.hpp"

#include <algorithm>

namespace ppsbench::stats::detail {

core::Edge choose_edge(std::span<const core::Pulse> pulses, std::optional<core::Edge> requested) {
    if (requested) {
        return *requested;
    }
    const bool any_assert = std::any_of(pulses.begin(), pulses.end(), [](const core::Pulse& p) {
        return p.edge == core::Edge::assert_edge;
    });
    return any_assert || pulses.empty() ? core::Edge::assert_edge : core::Edge::clear_edge;
}

Selection select_pulses(std::span<const core::Pulse> pulses, core::Edge edge,
                        std::int64_t period_ns) {
    Selection s;
    s.pulses = pulses;
    // First a cheap pass: the usual capture needs no index at all.
    bool identity = true;
    std::int64_t previous = 0;
    for (std::size_t i = 0; i < pulses.size(); ++i) {
        if (pulses[i].edge != edge) {
            ++s.other_edge;
            identity = false;
            continue;
        }
        if (i > 0 && identity && pulses[i].timestamp_ns - previous < period_ns / 2) {
            identity = false;  // out of order or a duplicate
        }
        previous = pulses[i].timestamp_ns;
    }
    s.identity = identity;
    if (identity) {
        s.size = pulses.size();
        return s;
    }
    s.source.reserve(pulses.size() - s.other_edge);
    bool have_previous = false;
    for (std::size_t i = 0; i < pulses.size(); ++i) {
        if (pulses[i].edge != edge) {
            continue;
        }
        if (have_previous && pulses[i].timestamp_ns < previous) {
            ++s.out_of_order;
        }
        previous = pulses[i].timestamp_ns;
        have_previous = true;
        s.source.push_back(i);
    }
    if (s.out_of_order > 0) {
        std::stable_sort(s.source.begin(), s.source.end(), [&](std::size_t a, std::size_t b) {
            return pulses[a].timestamp_ns < pulses[b].timestamp_ns;
        });
    }
    // A second pulse within half a period of the one before is not another pulse of the
    // train: an exact duplicate (a replayed line) or a glitch. Keep the first.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < s.source.size(); ++i) {
        if (kept > 0 && pulses[s.source[i]].timestamp_ns - pulses[s.source[kept - 1]].timestamp_ns <
                            period_ns / 2) {
            ++s.duplicates;
            continue;
        }
        s.source[kept++] = s.source[i];
    }
    s.source.resize(kept);
    s.size = kept;
    return s;
}

}  // namespace ppsbench::stats::detail
