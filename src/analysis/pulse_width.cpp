// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/pulse_width.hpp"

#include <algorithm>
#include <cmath>

namespace ppsbench::analysis {

std::optional<PulseWidth> pulse_width(const std::vector<core::Pulse>& pulses,
                                      std::int64_t period_ns) {
    // Welford's running mean and sum of squares: one pass, no per-pulse storage.
    PulseWidth width;
    double m2 = 0;
    std::optional<std::int64_t> open_assert;
    for (const auto& pulse : pulses) {
        if (pulse.edge == core::Edge::assert_edge) {
            open_assert = pulse.timestamp_ns;
            continue;
        }
        if (!open_assert) {
            continue;  // a clear edge without its assert (the first one, or after a loss)
        }
        const auto ns = pulse.timestamp_ns - *open_assert;
        open_assert.reset();
        if (ns < 0 || ns >= period_ns) {
            continue;
        }
        const double x = static_cast<double>(ns);
        ++width.pulses;
        const double delta = x - width.mean_ns;
        width.mean_ns += delta / static_cast<double>(width.pulses);
        m2 += delta * (x - width.mean_ns);
        width.min_ns = width.pulses == 1 ? x : std::min(width.min_ns, x);
        width.max_ns = width.pulses == 1 ? x : std::max(width.max_ns, x);
    }
    if (width.pulses == 0) {
        return std::nullopt;
    }
    width.stddev_ns =
        width.pulses > 1 ? std::sqrt(m2 / static_cast<double>(width.pulses - 1)) : 0.0;
    return width;
}

}  // namespace ppsbench::analysis
