#include "ppsbench/stats/offsets.hpp"

namespace ppsbench::stats {

std::int64_t phase_offset_ns(std::int64_t timestamp_ns, std::int64_t period_ns) {
    // Floor modulo first (C++ % truncates toward zero, wrong for negative timestamps), then fold
    // the upper half of the period onto negative offsets.
    std::int64_t r = timestamp_ns % period_ns;
    if (r < 0) {
        r += period_ns;
    }
    // Ties (exactly half a period) go positive: o in (−P/2, P/2].
    if (r > period_ns / 2 || (r == period_ns / 2 && period_ns % 2 != 0)) {
        r -= period_ns;
    }
    return r;
}

std::vector<double> phase_offsets_ns(std::span<const core::Pulse> pulses, std::int64_t period_ns) {
    std::vector<double> offsets;
    offsets.reserve(pulses.size());
    for (const auto& pulse : pulses) {
        offsets.push_back(static_cast<double>(phase_offset_ns(pulse.timestamp_ns, period_ns)));
    }
    return offsets;
}

}  // namespace ppsbench::stats
