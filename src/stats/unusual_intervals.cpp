// SPDX-License-Identifier: GPL-2.0-or-later
#include "unusual_intervals.hpp"

namespace ppsbench::stats::detail {

UnusualIntervals UnusualIntervals::for_period(std::int64_t period_ns, bool sequences) {
    UnusualIntervals u;
    u.sequences = sequences;
    // Up to 2^50 ns (13 days) every bound below is an exact double, so within() compares
    // exactly; a longer period is taken interval by interval.
    if (period_ns < 1 || period_ns > (std::int64_t{1} << 50)) {
        return u;
    }
    u.low_ns = period_ns - period_ns / 5;
    u.high_ns = period_ns + period_ns / 5;
    u.listed = true;
    return u;
}

bool UnusualIntervals::add(std::size_t i, std::size_t n) {
    if (!listed) {
        return false;
    }
    // One unusual interval in 16 and the stages' general code is as cheap as the stretches.
    if (at.size() >= n / 16 + 64) {
        listed = false;
        at.clear();
        at.shrink_to_fit();
        return false;
    }
    at.push_back(i);
    return true;
}

std::optional<UnusualIntervals> scan_file_order(const core::PackedPulses& pulses,
                                                std::int64_t period_ns, bool sequences) {
    UnusualIntervals u = UnusualIntervals::for_period(period_ns, sequences);
    const std::size_t n = pulses.size();
    if (n == 0) {
        return u;
    }
    // The sign bits of all timestamps at once: a negative one is the selection's error.
    std::uint64_t signs = static_cast<std::uint64_t>(pulses.timestamp_ns(0));
    const auto low = static_cast<std::uint64_t>(u.low_ns);
    const auto width = static_cast<std::uint64_t>(u.high_ns - u.low_ns);
    std::size_t i = 1;
    while (i < n) {
        // Pulses i … end − 1 each carry the sequence number after the one before.
        const std::size_t end = sequences ? pulses.counting_up_until(i - 1) : n;
        auto previous = static_cast<std::uint64_t>(pulses.timestamp_ns(i - 1));
        for (; i < end; ++i) {
            const auto t = static_cast<std::uint64_t>(pulses.timestamp_ns(i));
            signs |= t;
            if (t - previous - low > width && u.listed) {
                u.add(i, n);
            }
            previous = t;
        }
        if (end < n) {
            signs |= static_cast<std::uint64_t>(pulses.timestamp_ns(end));
            u.add(end, n);
            i = end + 1;
        }
    }
    if ((signs >> 63) != 0) {
        return std::nullopt;
    }
    return u;
}

}  // namespace ppsbench::stats::detail
