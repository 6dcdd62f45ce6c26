// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>

namespace ppsbench::stats {

// Phase offset of one timestamp from the nearest multiple of the nominal period:
// o = t − P·round(t / P), in (−P/2, P/2]. Computed in integer nanoseconds so a timestamp near
// 2^62 ns loses nothing before the result (which is small) becomes a double.
// Inline: analyze() computes it for every pulse, more than once.
inline std::int64_t phase_offset_ns(std::int64_t timestamp_ns, std::int64_t period_ns) {
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

}  // namespace ppsbench::stats
