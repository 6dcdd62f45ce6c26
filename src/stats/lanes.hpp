// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: four doubles as one value, the shape of the summaries' block kernels.
//
// GCC's (and clang's) vector extensions: inside a function compiled for AVX2 a Lanes is one ymm
// register, in the x86-64 baseline two SSE2 registers, on aarch64 two NEON ones. Each operation
// is the scalar one lane by lane and the kernels reduce the lanes in a fixed order, so every path
// gives the same bits (no FMA: ISO C++ mode keeps -ffp-contract=off, and "avx2" does not imply
// "fma"). A kernel is an always-inline template body wrapped twice on x86-64 with GCC, once in a
// function compiled for AVX2 and once for the baseline, and lanes_avx2() picks one per process:
// the Debian package runs on any x86-64, twice as fast where AVX2 is, and the tests can run both
// forms and compare their bits.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "ppsbench/core/simd_target.hpp"

// The AVX2 forms where simd_target.hpp compiles them (x86-64 with GCC: clang 14 refuses a
// 32-byte vector argument in a baseline function that calls an AVX2 one, so a clang build, the
// fuzzers', runs the baseline alone; as does a PPSBENCH_PORTABLE_SIMD build, as ARM does).
#if PPSBENCH_HAVE_AVX2_DISPATCH
#include <immintrin.h>
#define PPSBENCH_AVX2_TARGET [[gnu::target("avx2")]]
#else
#define PPSBENCH_AVX2_TARGET
#endif

// Every function taking or returning Lanes is inlined into its kernel, so the compilers' note
// that a 32-byte vector is passed differently with and without AVX concerns no call that exists.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace ppsbench::stats::detail {

using Lanes = double __attribute__((vector_size(32)));
using LaneMask = std::int64_t __attribute__((vector_size(32)));

inline constexpr std::size_t lane_count = 4;

// The one switch both dispatchers consult (lanes_avx2() here, lanes_available() of
// whole_kernels.hpp): whether AVX2 kernels may run in this process. False where the build has
// none (simd_target.hpp), the CPU lacks AVX2, or the environment says PPSBENCH_SIMD=portable
// (read once, at the first call, like the CPU probe).
bool avx2_dispatch();
// Whether the kernels run their AVX2 form: avx2_dispatch(), and no test asked for the baseline.
bool lanes_avx2();
// For the tests: run the baseline form from now on (true) or as the CPU allows (false).
void force_baseline_lanes(bool baseline);

[[gnu::always_inline]] inline Lanes load_lanes(const double* p) {
    Lanes v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

[[gnu::always_inline]] inline void store_lanes(double* p, Lanes v) {
    std::memcpy(p, &v, sizeof v);
}

[[gnu::always_inline]] inline Lanes splat(double x) {
    return Lanes{x, x, x, x};
}

// std::min(lo, v) and std::max(hi, v) lane by lane: v only where it is strictly beyond, as the
// scalar code keeps the first of equal values.
[[gnu::always_inline]] inline Lanes lanes_min(Lanes lo, Lanes v) {
    return v < lo ? v : lo;
}
[[gnu::always_inline]] inline Lanes lanes_max(Lanes hi, Lanes v) {
    return hi < v ? v : hi;
}

// |v|: the sign bit cleared, as std::abs (a cast between vector types of one size keeps the bits).
[[gnu::always_inline]] inline Lanes lanes_abs(Lanes v) {
    return reinterpret_cast<Lanes>(reinterpret_cast<LaneMask>(v) &
                                   std::numeric_limits<std::int64_t>::max());
}

// The form a kernel body is compiled in: its wrapper's target (a template argument, so the body
// can use the one instruction its form has where the generic code would take eight).
struct BaselineForm {
    static constexpr bool avx2 = false;
};
struct Avx2Form {
    static constexpr bool avx2 = true;
};

// Lane-by-lane comparisons as masks (all ones where true). In a function not compiled for AVX,
// GCC 12 runs a 32-byte vector's arithmetic as two 16-byte halves but lowers its comparisons to
// four scalar compares and sets (about ten instructions a lane, most of the baseline's first
// pass): the baseline form compares the halves itself (SSE2's cmppd, NEON's fcm*), the same
// masks.
using HalfLanes = double __attribute__((vector_size(16)));
using HalfMask = std::int64_t __attribute__((vector_size(16)));
enum class Compare { less, less_equal, equal };

template <Compare C, typename V>
[[gnu::always_inline]] inline auto compared(V a, V b) {
    if constexpr (C == Compare::less) {
        return a < b;
    } else if constexpr (C == Compare::less_equal) {
        return a <= b;
    } else {
        return a == b;
    }
}

template <typename Form, Compare C>
[[gnu::always_inline]] inline LaneMask compare_lanes(Lanes a, Lanes b) {
    if constexpr (Form::avx2) {
        return compared<C>(a, b);
    } else {
        const HalfMask low = compared<C>(HalfLanes{a[0], a[1]}, HalfLanes{b[0], b[1]});
        const HalfMask high = compared<C>(HalfLanes{a[2], a[3]}, HalfLanes{b[2], b[3]});
        return __builtin_shufflevector(low, high, 0, 1, 2, 3);
    }
}
template <typename Form>
[[gnu::always_inline]] inline LaneMask lanes_less(Lanes a, Lanes b) {
    return compare_lanes<Form, Compare::less>(a, b);
}
template <typename Form>
[[gnu::always_inline]] inline LaneMask lanes_less_equal(Lanes a, Lanes b) {
    return compare_lanes<Form, Compare::less_equal>(a, b);
}
template <typename Form>
[[gnu::always_inline]] inline LaneMask lanes_equal(Lanes a, Lanes b) {
    return compare_lanes<Form, Compare::equal>(a, b);
}

// Whether any lane of a comparison's mask is set.
template <typename Form>
[[gnu::always_inline]] inline bool any_lane(LaneMask m) {
#if PPSBENCH_HAVE_AVX2_DISPATCH
    if constexpr (Form::avx2) {
        // The builtin, not _mm256_testz_si256(): an intrinsic is a function of its own that
        // refuses to be inlined here, while a builtin is only expanded in the AVX2 wrapper.
        const auto bits = reinterpret_cast<__v4di>(m);
        return __builtin_ia32_ptestz256(bits, bits) == 0;
    } else {
        const auto either =
            __builtin_shufflevector(m, m, 0, 1) | __builtin_shufflevector(m, m, 2, 3);
        return _mm_movemask_pd(reinterpret_cast<__m128d>(either)) != 0;
    }
#else
    return ((m[0] | m[1]) | (m[2] | m[3])) != 0;
#endif
}

// The lanes set in a comparison's mask as bits 0–3.
template <typename Form>
[[gnu::always_inline]] inline unsigned lane_bits(LaneMask m) {
#if PPSBENCH_HAVE_AVX2_DISPATCH
    if constexpr (Form::avx2) {
        return static_cast<unsigned>(__builtin_ia32_movmskpd256(reinterpret_cast<__v4df>(m)));
    } else {
        return static_cast<unsigned>(
            _mm_movemask_pd(reinterpret_cast<__m128d>(__builtin_shufflevector(m, m, 0, 1))) |
            (_mm_movemask_pd(reinterpret_cast<__m128d>(__builtin_shufflevector(m, m, 2, 3))) << 2));
    }
#else
    return static_cast<unsigned>((m[0] & 1) | (m[1] & 2) | (m[2] & 4) | (m[3] & 8));
#endif
}

namespace lanes_detail {
// For each 4-bit mask, the 32-bit halves of its set lanes moved to the front (vpermd's indices).
struct PackOrder {
    alignas(32) std::int32_t index[16][8];
    unsigned count[16];
};
inline constexpr PackOrder pack_order = [] {
    PackOrder order{};
    for (unsigned bits = 0; bits < 16; ++bits) {
        unsigned k = 0;
        for (unsigned lane = 0; lane < 4; ++lane) {
            if ((bits >> lane & 1U) != 0) {
                order.index[bits][2 * k] = static_cast<std::int32_t>(2 * lane);
                order.index[bits][2 * k + 1] = static_cast<std::int32_t>(2 * lane + 1);
                ++k;
            }
        }
        order.count[bits] = k;
    }
    return order;
}();
}  // namespace lanes_detail

// The lanes of v whose mask is set, in lane order, written at out[0, k); returns k. All four
// lanes' room is written: out must have four values' room past what it keeps. No branch on the
// mask: which lanes are inside a selector's window is as good as random.
template <typename Form>
[[gnu::always_inline]] inline std::size_t pack_lanes(double* out, Lanes v, LaneMask m) {
    const unsigned bits = lane_bits<Form>(m);
#if PPSBENCH_HAVE_AVX2_DISPATCH
    if constexpr (Form::avx2) {
        using Words = std::int32_t __attribute__((vector_size(32)));
        Words order;
        std::memcpy(&order, lanes_detail::pack_order.index[bits], sizeof order);
        const Words packed = reinterpret_cast<Words>(__builtin_ia32_permvarsi256(
            reinterpret_cast<__v8si>(v), reinterpret_cast<__v8si>(order)));
        std::memcpy(out, &packed, sizeof packed);
        return lanes_detail::pack_order.count[bits];
    }
#endif
    std::size_t k = 0;
    for (std::size_t lane = 0; lane < lane_count; ++lane) {
        out[k] = v[lane];
        k += (bits >> lane) & 1U;
    }
    return k;
}

}  // namespace ppsbench::stats::detail
