#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ppsbench/core/pulse.hpp"

namespace ppsbench::stats {

// Phase offset of one timestamp from the nearest multiple of the nominal period:
// o = t − P·round(t / P), in (−P/2, P/2]. Computed in integer nanoseconds so a timestamp near
// 2^62 ns loses nothing before the result (which is small) becomes a double.
std::int64_t phase_offset_ns(std::int64_t timestamp_ns, std::int64_t period_ns);

// Phase offsets of every pulse, in capture order.
std::vector<double> phase_offsets_ns(std::span<const core::Pulse> pulses, std::int64_t period_ns);

}  // namespace ppsbench::stats
