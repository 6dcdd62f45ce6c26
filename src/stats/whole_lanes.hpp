// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the lanes the whole-nanosecond stability kernels (whole_*.cpp) are written in, four
// doubles (F) and eight int32 (I), in two implementations that give the same bits lane by lane:
//   BaseLanes: two 128-bit halves in GCC's vector extensions: SSE2 on x86-64 (the baseline the
//              Debian package assumes), NEON on aarch64, scalar code where there is neither;
//   Avx2Lanes: one 256-bit register, on x86-64 only, for functions compiled for AVX2 and chosen
//              at run time (whole_kernels.hpp).
// A kernel is a template over the lanes, instantiated in a [[gnu::flatten]] function per path
// (with target("avx2") for the wide one) so that every call below is inlined into code of that
// instruction set. The kernel templates (and their lambdas) are also [[gnu::always_inline]]:
// flatten inlines nothing at -O0 (the sanitizer build), and a template body left out of line is
// compiled without AVX2 and passes the 256-bit values to the AVX2 functions in the wrong
// registers (garbage, found by UBSan as an int32 overflow on the hole marker). Every double
// operation here is an IEEE add, subtract or multiply of the lane's own values (never fused: no FMA
// in either target) or exact (conversions of int32, sums of whole numbers below 2^53), so the same
// kernel gives the same bits on either path.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "ppsbench/core/simd_target.hpp"

// The AVX2 path is GCC's: clang refuses a kernel template's calls into AVX2 helpers unless the
// template itself is compiled for AVX2 (an ABI error), so a clang build (the fuzz harnesses)
// has the base path only, as the summaries' lanes (lanes.hpp) do, and so does a
// PPSBENCH_PORTABLE_SIMD build (simd_target.hpp decides).
#if PPSBENCH_HAVE_AVX2_DISPATCH
#include <immintrin.h>
#elif PPSBENCH_HAVE_SSE2
#include <emmintrin.h>
#endif

// The helpers pass 32-byte vectors by value, which GCC notes as an ABI change when the caller
// is not compiled for AVX; they are always inlined, so no such call exists.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace ppsbench::stats::detail {

using f64x2 [[gnu::vector_size(16)]] = double;
using i64x2 [[gnu::vector_size(16)]] = std::int64_t;
using i32x4 [[gnu::vector_size(16)]] = std::int32_t;
using f64x4 [[gnu::vector_size(32)]] = double;
using i32x8 [[gnu::vector_size(32)]] = std::int32_t;

struct BaseLanes {
    struct F {
        f64x2 lo, hi;
        friend F operator+(F a, F b) { return {a.lo + b.lo, a.hi + b.hi}; }
        friend F operator-(F a, F b) { return {a.lo - b.lo, a.hi - b.hi}; }
        friend F operator*(F a, F b) { return {a.lo * b.lo, a.hi * b.hi}; }
    };
    struct I {
        i32x4 lo, hi;
    };

    static F splat(double v) { return {f64x2{v, v}, f64x2{v, v}}; }
    static F zero() { return splat(0.0); }
    // Four int32 as doubles, exact. GCC 12 converts a generic two-int32 vector one scalar at a
    // time on x86 (cvtsi2sd with its pxor: most of the base path's ADEV and MDEV), so: cvtdq2pd
    // where SSE2 is; elsewhere, little-endian, each value put below the exponent of 2^52 (a
    // double whose words are 0x43300000 and x ^ 2^31 is 2^52 + 2^31 + x; an interleave) and the
    // bias subtracted: exact for every int32 (both within 2^52..2^53, the difference whole;
    // +0.0 for 0, as the conversion gives), in plain vector instructions.
    static F to_f64(i32x4 v) {
#if PPSBENCH_HAVE_SSE2
        const __m128i w = reinterpret_cast<__m128i>(v);
        return {reinterpret_cast<f64x2>(_mm_cvtepi32_pd(w)),
                reinterpret_cast<f64x2>(_mm_cvtepi32_pd(_mm_unpackhi_epi64(w, w)))};
#else
        if constexpr (std::endian::native == std::endian::little) {
            constexpr std::int32_t sign = std::numeric_limits<std::int32_t>::min();
            constexpr std::int32_t top = 0x43300000;  // the high word of 2^52
            const i32x4 signs = {sign, sign, sign, sign};
            const i32x4 tops = {top, top, top, top};
            const i32x4 biased = v ^ signs;
            const i32x4 low = __builtin_shufflevector(biased, tops, 0, 4, 1, 5);
            const i32x4 high = __builtin_shufflevector(biased, tops, 2, 6, 3, 7);
            constexpr double bias = 0x1p52 + 0x1p31;
            const f64x2 biases = {bias, bias};
            return {reinterpret_cast<f64x2>(low) - biases, reinterpret_cast<f64x2>(high) - biases};
        } else {
            return {__builtin_convertvector(__builtin_shufflevector(v, v, 0, 1), f64x2),
                    __builtin_convertvector(__builtin_shufflevector(v, v, 2, 3), f64x2)};
        }
#endif
    }
    // Four int32 at p, as doubles (exact).
    static F load_ns(const std::int32_t* p) {
        i32x4 v;
        std::memcpy(&v, p, sizeof v);
        return to_f64(v);
    }
    static F low_f64(I v) {
        return to_f64(v.lo);
    }
    static F high_f64(I v) {
        return to_f64(v.hi);
    }
    static F load(const double* p) {
        F v;
        std::memcpy(&v.lo, p, sizeof v.lo);
        std::memcpy(&v.hi, p + 2, sizeof v.hi);
        return v;
    }
    static void store(double* p, F v) {
        std::memcpy(p, &v.lo, sizeof v.lo);
        std::memcpy(p + 2, &v.hi, sizeof v.hi);
    }
    // Inclusive prefix sums across the lanes; exact for whole numbers below 2^53, so the order
    // of the additions does not matter.
    static F prefix(F s) {
        const f64x2 zero{0.0, 0.0};
        const f64x2 lo = s.lo + __builtin_shufflevector(zero, s.lo, 0, 2);
        const f64x2 hi = s.hi + __builtin_shufflevector(zero, s.hi, 0, 2);
        return {lo, hi + __builtin_shufflevector(lo, lo, 1, 1)};
    }
    static F last(F v) {
        return {__builtin_shufflevector(v.hi, v.hi, 1, 1),
                __builtin_shufflevector(v.hi, v.hi, 1, 1)};
    }

    // Half by half: GCC 12 puts a whole struct copied with one memcpy through the stack (a
    // store and a load of each half on every access: most of the base path's MTIE tables).
    static I load_i(const std::int32_t* p) {
        I v;
        std::memcpy(&v.lo, p, sizeof v.lo);
        std::memcpy(&v.hi, p + 4, sizeof v.hi);
        return v;
    }
    static void store_i(std::int32_t* p, I v) {
        std::memcpy(p, &v.lo, sizeof v.lo);
        std::memcpy(p + 4, &v.hi, sizeof v.hi);
    }
    static I splat_i(std::int32_t v) {
        return {i32x4{v, v, v, v}, i32x4{v, v, v, v}};
    }
    static I max(I a, I b) {
        return {a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
    }
    static I min(I a, I b) {
        return {a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
    }
    static I sub(I a, I b) {
        return {a.lo - b.lo, a.hi - b.hi};
    }
    static I add(I a, I b) {
        return {a.lo + b.lo, a.hi + b.hi};
    }
    // Inclusive prefix sums across the eight lanes (wrapping, as int32 does in SIMD).
    static I prefix_i(I v) {
        const i32x4 zero{0, 0, 0, 0};
        auto half = [&zero](i32x4 h) {
            h += __builtin_shufflevector(zero, h, 0, 4, 5, 6);
            return h + __builtin_shufflevector(zero, h, 0, 1, 4, 5);
        };
        const i32x4 lo = half(v.lo);
        return {lo, half(v.hi) + __builtin_shufflevector(lo, lo, 3, 3, 3, 3)};
    }
    // All ones where a == b, else zero.
    static I eq(I a, I b) {
        return {a.lo == b.lo, a.hi == b.hi};
    }
    static I or_i(I a, I b) {
        return {a.lo | b.lo, a.hi | b.hi};
    }
    static I andnot(I mask, I v) {
        return {~mask.lo & v.lo, ~mask.hi & v.hi};
    }
    static I select(I mask, I a, I b) {  // mask ? a : b
        return {(mask.lo & a.lo) | (~mask.lo & b.lo), (mask.hi & a.hi) | (~mask.hi & b.hi)};
    }
    static std::int32_t max_lane(I v) {
        i32x4 m = v.lo > v.hi ? v.lo : v.hi;
        m = m > __builtin_shufflevector(m, m, 2, 3, 0, 1)
                ? m
                : __builtin_shufflevector(m, m, 2, 3, 0, 1);
        return std::max(m[0], m[1]);
    }
    static std::int32_t min_lane(I v) {
        i32x4 m = v.lo < v.hi ? v.lo : v.hi;
        m = m < __builtin_shufflevector(m, m, 2, 3, 0, 1)
                ? m
                : __builtin_shufflevector(m, m, 2, 3, 0, 1);
        return std::min(m[0], m[1]);
    }
    // Lane j takes lane j + K (j + K < 8), else `fill`; and lane j − K (j ≥ K), else `fill`.
    template <int K>
    static I shift_down(I v, I fill) {
        if constexpr (K == 4) {
            return {v.hi, fill.hi};
        } else {
            return {__builtin_shufflevector(v.lo, v.hi, K, K + 1, K + 2, K + 3),
                    __builtin_shufflevector(v.hi, fill.hi, K, K + 1, K + 2, K + 3)};
        }
    }
    template <int K>
    static I shift_up(I v, I fill) {
        if constexpr (K == 4) {
            return {fill.lo, v.lo};
        } else {
            return {__builtin_shufflevector(fill.lo, v.lo, 4 - K, 5 - K, 6 - K, 7 - K),
                    __builtin_shufflevector(v.lo, v.hi, 4 - K, 5 - K, 6 - K, 7 - K)};
        }
    }
    static I first_lane(I v) {
        const i32x4 b = __builtin_shufflevector(v.lo, v.lo, 0, 0, 0, 0);
        return {b, b};
    }
    static I last_lane(I v) {
        const i32x4 b = __builtin_shufflevector(v.hi, v.hi, 3, 3, 3, 3);
        return {b, b};
    }
    static bool any(I mask) {
        const i32x4 m = mask.lo | mask.hi;
        return (m[0] | m[1] | m[2] | m[3]) != 0;
    }
};

#if PPSBENCH_HAVE_AVX2_DISPATCH
// Every member is compiled for AVX2; only code itself compiled for AVX2 may call them.
struct Avx2Lanes {
    using F = f64x4;
    using I = i32x8;

    [[gnu::target("avx2")]] static F splat(double v) { return F{v, v, v, v}; }
    [[gnu::target("avx2")]] static F zero() { return F{0.0, 0.0, 0.0, 0.0}; }
    [[gnu::target("avx2")]] static F load_ns(const std::int32_t* p) {
        return reinterpret_cast<F>(
            _mm256_cvtepi32_pd(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
    }
    [[gnu::target("avx2")]] static F low_f64(I v) {
        return reinterpret_cast<F>(
            _mm256_cvtepi32_pd(_mm256_castsi256_si128(reinterpret_cast<__m256i>(v))));
    }
    [[gnu::target("avx2")]] static F high_f64(I v) {
        return reinterpret_cast<F>(
            _mm256_cvtepi32_pd(_mm256_extracti128_si256(reinterpret_cast<__m256i>(v), 1)));
    }
    [[gnu::target("avx2")]] static F load(const double* p) {
        F v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    [[gnu::target("avx2")]] static void store(double* p, F v) { std::memcpy(p, &v, sizeof v); }
    [[gnu::target("avx2")]] static F prefix(F s) {
        const F zero{0.0, 0.0, 0.0, 0.0};
        s += __builtin_shufflevector(zero, s, 0, 4, 5, 6);
        return s + __builtin_shufflevector(zero, s, 0, 1, 4, 5);
    }
    [[gnu::target("avx2")]] static F last(F v) { return __builtin_shufflevector(v, v, 3, 3, 3, 3); }

    [[gnu::target("avx2")]] static I load_i(const std::int32_t* p) {
        I v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    [[gnu::target("avx2")]] static void store_i(std::int32_t* p, I v) {
        std::memcpy(p, &v, sizeof v);
    }
    [[gnu::target("avx2")]] static I splat_i(std::int32_t v) { return I{v, v, v, v, v, v, v, v}; }
    [[gnu::target("avx2")]] static I max(I a, I b) {
        return reinterpret_cast<I>(
            _mm256_max_epi32(reinterpret_cast<__m256i>(a), reinterpret_cast<__m256i>(b)));
    }
    [[gnu::target("avx2")]] static I min(I a, I b) {
        return reinterpret_cast<I>(
            _mm256_min_epi32(reinterpret_cast<__m256i>(a), reinterpret_cast<__m256i>(b)));
    }
    [[gnu::target("avx2")]] static I sub(I a, I b) { return a - b; }
    [[gnu::target("avx2")]] static I add(I a, I b) { return a + b; }
    [[gnu::target("avx2")]] static I prefix_i(I v) {
        auto m = reinterpret_cast<__m256i>(v);
        m = _mm256_add_epi32(m, _mm256_slli_si256(m, 4));  // within each 128-bit half
        m = _mm256_add_epi32(m, _mm256_slli_si256(m, 8));
        const __m256i low_total = _mm256_shuffle_epi32(m, 0xff);  // lane 3 of each half
        // the low half's total into the high half, zero into the low one
        return reinterpret_cast<I>(
            _mm256_add_epi32(m, _mm256_permute2x128_si256(low_total, low_total, 0x08)));
    }
    [[gnu::target("avx2")]] static I eq(I a, I b) { return a == b; }
    [[gnu::target("avx2")]] static I or_i(I a, I b) { return a | b; }
    [[gnu::target("avx2")]] static I andnot(I mask, I v) { return ~mask & v; }
    [[gnu::target("avx2")]] static std::int32_t max_lane(I v) {
        const auto w = reinterpret_cast<__m256i>(v);
        __m128i m = _mm_max_epi32(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
        m = _mm_max_epi32(m, _mm_shuffle_epi32(m, 0x4e));
        return _mm_cvtsi128_si32(_mm_max_epi32(m, _mm_shuffle_epi32(m, 0xb1)));
    }
    [[gnu::target("avx2")]] static std::int32_t min_lane(I v) {
        const auto w = reinterpret_cast<__m256i>(v);
        __m128i m = _mm_min_epi32(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
        m = _mm_min_epi32(m, _mm_shuffle_epi32(m, 0x4e));
        return _mm_cvtsi128_si32(_mm_min_epi32(m, _mm_shuffle_epi32(m, 0xb1)));
    }
    template <int K>
    [[gnu::target("avx2")]] static I shift_down(I v, I fill) {
        const __m256i to = _mm256_setr_epi32(K % 8, (K + 1) % 8, (K + 2) % 8, (K + 3) % 8,
                                             (K + 4) % 8, (K + 5) % 8, (K + 6) % 8, (K + 7) % 8);
        const __m256i moved = _mm256_permutevar8x32_epi32(reinterpret_cast<__m256i>(v), to);
        return reinterpret_cast<I>(
            _mm256_blend_epi32(moved, reinterpret_cast<__m256i>(fill), (0xff << (8 - K)) & 0xff));
    }
    template <int K>
    [[gnu::target("avx2")]] static I shift_up(I v, I fill) {
        const __m256i to =
            _mm256_setr_epi32((8 - K) % 8, (9 - K) % 8, (10 - K) % 8, (11 - K) % 8, (12 - K) % 8,
                              (13 - K) % 8, (14 - K) % 8, (15 - K) % 8);
        const __m256i moved = _mm256_permutevar8x32_epi32(reinterpret_cast<__m256i>(v), to);
        return reinterpret_cast<I>(
            _mm256_blend_epi32(moved, reinterpret_cast<__m256i>(fill), (1 << K) - 1));
    }
    [[gnu::target("avx2")]] static I first_lane(I v) {
        return reinterpret_cast<I>(
            _mm256_broadcastd_epi32(_mm256_castsi256_si128(reinterpret_cast<__m256i>(v))));
    }
    [[gnu::target("avx2")]] static I last_lane(I v) {
        return reinterpret_cast<I>(
            _mm256_permutevar8x32_epi32(reinterpret_cast<__m256i>(v), _mm256_set1_epi32(7)));
    }
    [[gnu::target("avx2")]] static bool any(I mask) {
        const auto m = reinterpret_cast<__m256i>(mask);
        return _mm256_testz_si256(m, m) == 0;
    }
    [[gnu::target("avx2")]] static I select(I mask, I a, I b) {
        return reinterpret_cast<I>(_mm256_blendv_epi8(reinterpret_cast<__m256i>(b),
                                                      reinterpret_cast<__m256i>(a),
                                                      reinterpret_cast<__m256i>(mask)));
    }
};
#endif

}  // namespace ppsbench::stats::detail
