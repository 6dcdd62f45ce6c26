// SPDX-License-Identifier: GPL-2.0-or-later
#include "phase.hpp"

#include <algorithm>
#include <cmath>

#include "ppsbench/stats/offsets.hpp"
#include "ppsbench/stats/quantile.hpp"

namespace ppsbench::stats::detail {

PhaseSeries phase_series(const Selection& selection, const PulseIndex& index, core::ClockId clock,
                         std::int64_t period_ns, std::size_t capacity) {
    PhaseSeries phase;
    phase.rule.realtime = core::counts_true_seconds(clock);
    phase.rule.period_ns = period_ns;
    const std::size_t n = selection.size;
    std::vector<double>& values = phase.values_ns;
    values.reserve(std::max(n, capacity));
    values.resize(n);
    if (phase.rule.realtime && n > 0) {
        // The window's centre: first centre on the first pulse, then on the median of those
        // offsets (from an even sample; the buffer is scratch until the phase overwrites it).
        // Robust unless the first pulse is itself half a period away from all the others.
        const TimestampColumn t{selection};
        const std::int64_t first = phase_offset_ns(t[0], period_ns);
        PhaseFolder around(first, period_ns);
        for (std::size_t i = 0; i < n; ++i) {
            values[i] = static_cast<double>(around(t[i]));
        }
        std::vector<double> scratch = even_sample(values);
        const auto median = static_cast<std::int64_t>(std::llround(median_in_place(scratch)));
        phase.rule.centre = phase_offset_ns(median, period_ns);
    }
    phase.rule.for_each(selection, index, {},
                        [&values](std::size_t i, std::int64_t, double v) { values[i] = v; });
    return phase;
}

void fold_into_window(std::span<double> values_ns, std::int64_t centre, std::int64_t period_ns) {
    const auto p = static_cast<double>(period_ns);
    const auto c = static_cast<double>(centre);
    for (double& v : values_ns) {
        // Whole periods only: an offset already in the window is left to the bit.
        const double periods = std::ceil((v - c) / p - 0.5);
        if (periods != 0) {
            v -= periods * p;
        }
    }
}

}  // namespace ppsbench::stats::detail
