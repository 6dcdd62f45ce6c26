// SPDX-License-Identifier: GPL-2.0-or-later
#include "phase_blocks.hpp"

#include "ppsbench/core/simd_target.hpp"

#if PPSBENCH_HAVE_SSE2
#include <emmintrin.h>
#endif

namespace ppsbench::stats::detail {

void usual_phase_block_scalar(const std::int64_t* t, std::size_t count, std::uint64_t& base,
                              std::uint64_t period_ns, double* out) {
    for (std::size_t j = 0; j < count; ++j) {
        base += period_ns;
        out[j] =
            static_cast<double>(static_cast<std::int64_t>(static_cast<std::uint64_t>(t[j]) - base));
    }
}

void usual_phase_block(const std::int64_t* t, std::size_t count, std::uint64_t& base,
                       std::uint64_t period_ns, double* out) {
#if PPSBENCH_HAVE_SSE2
    // SSE2 has no int64 → double conversion; an integer |v| < 2^51 added to the bits of
    // 1.5·2^52 gives the double 1.5·2^52 + v exactly (no carry out of the mantissa), and
    // subtracting 1.5·2^52 leaves v exactly, as cvtsi2sd would (0 as +0).
    const __m128i magic_bits = _mm_set1_epi64x(0x4338000000000000);
    const __m128d magic = _mm_set1_pd(6755399441055744.0);
    const auto p = static_cast<std::int64_t>(period_ns);
    __m128i bases = _mm_set_epi64x(static_cast<std::int64_t>(base + 2 * period_ns),
                                   static_cast<std::int64_t>(base + period_ns));
    const __m128i step = _mm_set1_epi64x(2 * p);
    std::size_t j = 0;
#pragma GCC unroll 4
    for (; j + 2 <= count; j += 2) {
        const __m128i v =
            _mm_sub_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + j)), bases);
        bases = _mm_add_epi64(bases, step);
        _mm_storeu_pd(out + j, _mm_sub_pd(_mm_castsi128_pd(_mm_add_epi64(v, magic_bits)), magic));
    }
    base += j * period_ns;
    usual_phase_block_scalar(t + j, count - j, base, period_ns, out + j);
#else
    usual_phase_block_scalar(t, count, base, period_ns, out);
#endif
}

}  // namespace ppsbench::stats::detail
