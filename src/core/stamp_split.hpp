// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Private to core: PackedPulses::append's one pass over a block of stamps (a timestamp with its
// edge in bit 63, core::PulseColumns): the timestamps out, and whether any and whether every
// pulse is a clear edge. Two lanes at a time with SSE2 (every x86-64), one at a time elsewhere;
// both give the same words (tests/core/packed_pulses_test.cpp runs each).

#include <cstddef>
#include <cstdint>

#include "ppsbench/core/packed_pulses.hpp"
#include "ppsbench/core/simd_target.hpp"

#if PPSBENCH_HAVE_SSE2
#include <emmintrin.h>
#endif

namespace ppsbench::core::detail {

// The OR and the AND of the stamps split: bit 63 of each says whether any, and whether every,
// pulse is a clear edge.
struct StampEdges {
    std::uint64_t any = 0;
    std::uint64_t all = ~std::uint64_t{0};
};

inline StampEdges split_stamps_one_by_one(const std::uint64_t* stamps, std::int64_t* timestamps,
                                          std::size_t n) {
    StampEdges edges;
    for (std::size_t i = 0; i < n; ++i) {
        timestamps[i] = static_cast<std::int64_t>(stamps[i] & ~clear_stamp_bit);
        edges.any |= stamps[i];
        edges.all &= stamps[i];
    }
    return edges;
}

#if PPSBENCH_HAVE_SSE2
inline StampEdges split_stamps_sse2(const std::uint64_t* stamps, std::int64_t* timestamps,
                                    std::size_t n) {
    const __m128i timestamp_bits = _mm_set1_epi64x(static_cast<long long>(~clear_stamp_bit));
    __m128i any = _mm_setzero_si128();
    __m128i all = _mm_set1_epi64x(-1);
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(stamps + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(stamps + i + 2));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(timestamps + i),
                         _mm_and_si128(a, timestamp_bits));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(timestamps + i + 2),
                         _mm_and_si128(b, timestamp_bits));
        any = _mm_or_si128(any, _mm_or_si128(a, b));
        all = _mm_and_si128(all, _mm_and_si128(a, b));
    }
    const __m128i any_lanes = _mm_or_si128(any, _mm_unpackhi_epi64(any, any));
    const __m128i all_lanes = _mm_and_si128(all, _mm_unpackhi_epi64(all, all));
    StampEdges edges = split_stamps_one_by_one(stamps + i, timestamps + i, n - i);
    edges.any |= static_cast<std::uint64_t>(_mm_cvtsi128_si64(any_lanes));
    edges.all &= static_cast<std::uint64_t>(_mm_cvtsi128_si64(all_lanes));
    return edges;
}
#endif

inline StampEdges split_stamps(const std::uint64_t* stamps, std::int64_t* timestamps,
                               std::size_t n) {
#if PPSBENCH_HAVE_SSE2
    return split_stamps_sse2(stamps, timestamps, n);
#else
    return split_stamps_one_by_one(stamps, timestamps, n);
#endif
}

}  // namespace ppsbench::core::detail
