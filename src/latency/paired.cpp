// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/latency/paired.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "ppsbench/stats/offsets.hpp"

namespace ppsbench::latency {

namespace {

// Indices of `series` with edge `edge`, sorted by time (capture order is time order for a real
// source, but a replayed or merged file need not be).
std::vector<std::size_t> of_edge(std::span<const TimedPulse> series, core::Edge edge) {
    std::vector<std::size_t> indices;
    for (std::size_t i = 0; i < series.size(); ++i) {
        if (series[i].edge == edge) {
            indices.push_back(i);
        }
    }
    std::stable_sort(indices.begin(), indices.end(), [&](std::size_t x, std::size_t y) {
        return series[x].time_ns < series[y].time_ns;
    });
    return indices;
}

// The position in `sorted` (indices into `series`) of the pulse nearest to `time_ns`.
std::size_t nearest(std::span<const TimedPulse> series, const std::vector<std::size_t>& sorted,
                    std::int64_t time_ns) {
    const auto it = std::lower_bound(
        sorted.begin(), sorted.end(), time_ns,
        [&](std::size_t index, std::int64_t t) { return series[index].time_ns < t; });
    auto pos = static_cast<std::size_t>(it - sorted.begin());
    if (pos == sorted.size()) {
        return pos - 1;
    }
    if (pos > 0 &&
        time_ns - series[sorted[pos - 1]].time_ns <= series[sorted[pos]].time_ns - time_ns) {
        --pos;
    }
    return pos;
}

stats::Summary jitter_of(std::span<const TimedPulse> series, core::ClockId clock,
                         std::int64_t period_ns) {
    std::vector<double> values;
    values.reserve(series.size());
    if (clock == core::ClockId::realtime) {
        for (const auto& p : series) {
            values.push_back(static_cast<double>(stats::phase_offset_ns(p.time_ns, period_ns)));
        }
        return stats::summarize(values);
    }
    // No top of the second on CLOCK_MONOTONIC: interval from the previous edge of the same kind,
    // less a whole number of periods (so a missed pulse is not a jitter of one period).
    for (const core::Edge edge : {core::Edge::assert_edge, core::Edge::clear_edge}) {
        const auto indices = of_edge(series, edge);
        for (std::size_t k = 1; k < indices.size(); ++k) {
            const std::int64_t gap = series[indices[k]].time_ns - series[indices[k - 1]].time_ns;
            values.push_back(static_cast<double>(stats::phase_offset_ns(gap, period_ns)));
        }
    }
    return stats::summarize(values);
}

}  // namespace

core::ClockId common_clock(core::ClockId a, core::ClockId b) {
    return a == core::ClockId::realtime || b == core::ClockId::realtime ? core::ClockId::realtime
                                                                        : core::ClockId::monotonic;
}

Pairing pair_edges(std::span<const TimedPulse> a, std::span<const TimedPulse> b,
                   std::int64_t window_ns) {
    Pairing pairing;
    for (const core::Edge edge : {core::Edge::assert_edge, core::Edge::clear_edge}) {
        const auto sa = of_edge(a, edge);
        const auto sb = of_edge(b, edge);
        std::size_t paired = 0;
        if (!sa.empty() && !sb.empty()) {
            for (std::size_t i = 0; i < sa.size(); ++i) {
                const std::size_t j = nearest(b, sb, a[sa[i]].time_ns);
                // Mutual nearest: B's pulse must also have A's as its nearest, so two A pulses
                // never claim the same B pulse.
                if (nearest(a, sa, b[sb[j]].time_ns) != i) {
                    continue;
                }
                const std::int64_t d = b[sb[j]].time_ns - a[sa[i]].time_ns;
                if (std::llabs(d) >= window_ns) {
                    continue;
                }
                pairing.pairs.push_back({sa[i], sb[j], d});
                ++paired;
            }
        }
        pairing.unpaired_a += sa.size() - paired;
        pairing.unpaired_b += sb.size() - paired;
    }
    std::sort(
        pairing.pairs.begin(), pairing.pairs.end(),
        [&](const PairedEdge& x, const PairedEdge& y) { return a[x.a].time_ns < a[y.a].time_ns; });
    return pairing;
}

std::optional<std::int64_t> interpolated_edge(std::int64_t before_ns, std::int64_t next_ns,
                                              std::int64_t t_ns, std::int64_t period_ns) {
    const double span = static_cast<double>(next_ns - before_ns);
    const double period = static_cast<double>(period_ns);
    const auto periods = std::llround(span / period);
    const auto at = std::llround(static_cast<double>(t_ns - before_ns) / period);
    if (periods < 2 || periods > max_interpolation_periods || at < 1 || at >= periods) {
        return std::nullopt;
    }
    return before_ns + std::llround(span * static_cast<double>(at) / static_cast<double>(periods));
}

DualSummary compare_paths(std::span<const TimedPulse> a, std::span<const TimedPulse> b,
                          core::ClockId clock, std::int64_t period_ns) {
    DualSummary dual;
    dual.clock = clock;
    dual.period_ns = period_ns;
    dual.jitter_measure = clock == core::ClockId::realtime ? "phase offset" : "period jitter";
    dual.jitter_a = jitter_of(a, clock, period_ns);
    dual.jitter_b = jitter_of(b, clock, period_ns);
    dual.pulses_a = a.size();
    dual.pulses_b = b.size();
    const Pairing pairing = pair_edges(a, b, period_ns / 2);
    dual.pairs = pairing.pairs.size();
    dual.unpaired_a = pairing.unpaired_a;
    dual.unpaired_b = pairing.unpaired_b;
    std::vector<double> differences;
    differences.reserve(pairing.pairs.size());
    std::size_t later = 0;
    for (const auto& pair : pairing.pairs) {
        differences.push_back(static_cast<double>(pair.difference_ns));
        later += pair.difference_ns > 0 ? 1 : 0;
    }
    dual.fraction_b_later =
        differences.empty() ? 0.0
                            : static_cast<double>(later) / static_cast<double>(differences.size());
    dual.difference = describe(std::move(differences));
    return dual;
}

}  // namespace ppsbench::latency
