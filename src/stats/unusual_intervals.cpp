// SPDX-License-Identifier: GPL-2.0-or-later
#include "unusual_intervals.hpp"

#include <limits>

#include "ppsbench/core/simd_target.hpp"

#if PPSBENCH_HAVE_SSE2
#include <emmintrin.h>
#endif

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

std::size_t first_unusual_scalar(std::span<const std::int64_t> t, std::size_t from, std::size_t to,
                                 std::uint64_t low, std::uint64_t width, std::uint64_t& signs) {
    auto previous = static_cast<std::uint64_t>(t[from - 1]);
    for (std::size_t i = from; i < to; ++i) {
        const auto t_i = static_cast<std::uint64_t>(t[i]);
        signs |= t_i;
        if (t_i - previous - low > width) {
            return i;
        }
        previous = t_i;
    }
    return to;
}

std::size_t first_unusual(std::span<const std::int64_t> t, std::size_t from, std::size_t to,
                          std::uint64_t low, std::uint64_t width, std::uint64_t& signs) {
#if PPSBENCH_HAVE_SSE2
    if (width < (std::uint64_t{1} << 31)) {
        // Four intervals a step. x = t_i − t_{i−1} − low lies in [0, width] when its high half
        // is 0 and its low half at most `width`: with the sign bit of each half flipped, one
        // signed 32-bit comparison asks both (the high half against INT_MIN, above it iff not
        // 0). A step with an unusual interval is done again one pulse at a time, so that
        // `signs` gets exactly the timestamps up to it.
        const std::int64_t* x = t.data();
        const auto load = [x](std::size_t at) {
            return _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + at));
        };
        const __m128i low2 = _mm_set1_epi64x(static_cast<std::int64_t>(low));
        const __m128i flip = _mm_set1_epi32(std::numeric_limits<std::int32_t>::min());
        const auto flipped_width =
            static_cast<std::int32_t>(static_cast<std::uint32_t>(width) ^ 0x80000000U);
        const __m128i above =
            _mm_set_epi32(std::numeric_limits<std::int32_t>::min(), flipped_width,
                          std::numeric_limits<std::int32_t>::min(), flipped_width);
        __m128i read = _mm_setzero_si128();
        std::size_t i = from;
        for (; i + 4 <= to; i += 4) {
            const __m128i a = load(i);
            const __m128i b = load(i + 2);
            const __m128i da =
                _mm_xor_si128(_mm_sub_epi64(_mm_sub_epi64(a, load(i - 1)), low2), flip);
            const __m128i db =
                _mm_xor_si128(_mm_sub_epi64(_mm_sub_epi64(b, load(i + 1)), low2), flip);
            if (_mm_movemask_epi8(
                    _mm_or_si128(_mm_cmpgt_epi32(da, above), _mm_cmpgt_epi32(db, above))) != 0) {
                break;
            }
            read = _mm_or_si128(read, _mm_or_si128(a, b));
        }
        std::uint64_t lanes[2];
        _mm_storeu_si128(reinterpret_cast<__m128i*>(lanes), read);
        signs |= lanes[0] | lanes[1];
        return first_unusual_scalar(t, i, to, low, width, signs);
    }
#endif
    return first_unusual_scalar(t, from, to, low, width, signs);
}

std::optional<UnusualIntervals> scan_file_order(const core::PackedPulses& pulses,
                                                std::int64_t period_ns, bool sequences) {
    UnusualIntervals u = UnusualIntervals::for_period(period_ns, sequences);
    const std::size_t n = pulses.size();
    if (n == 0) {
        return u;
    }
    // The sign bits of all timestamps at once: a negative one is the selection's error.
    const std::span<const std::int64_t> t = pulses.timestamps_ns();
    std::uint64_t signs = static_cast<std::uint64_t>(t[0]);
    const auto low = static_cast<std::uint64_t>(u.low_ns);
    const auto width = static_cast<std::uint64_t>(u.high_ns - u.low_ns);
    std::size_t i = 1;
    while (i < n && u.listed) {
        // Pulses i … end − 1 each carry the sequence number after the one before.
        const std::size_t end = sequences ? pulses.counting_up_until(i - 1) : n;
        while (i < end) {
            i = first_unusual(t, i, end, low, width, signs);
            if (i < end) {
                u.add(i, n);
                ++i;
            }
        }
        if (end < n) {
            signs |= static_cast<std::uint64_t>(t[end]);
            u.add(end, n);
            i = end + 1;
        }
    }
    for (; i < n; ++i) {
        signs |= static_cast<std::uint64_t>(t[i]);  // a list given up: only the signs are left
    }
    if ((signs >> 63) != 0) {
        return std::nullopt;
    }
    return u;
}

}  // namespace ppsbench::stats::detail
