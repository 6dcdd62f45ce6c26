#include "ppsbench/stats/offsets.hpp"

namespace ppsbench::stats {

std::vector<double> phase_offsets_ns(std::span<const core::Pulse> pulses, std::int64_t period_ns) {
    std::vector<double> offsets;
    offsets.reserve(pulses.size());
    for (const auto& pulse : pulses) {
        offsets.push_back(static_cast<double>(phase_offset_ns(pulse.timestamp_ns, period_ns)));
    }
    return offsets;
}

}  // namespace ppsbench::stats
