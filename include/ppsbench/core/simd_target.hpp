// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal to the library (core, store and stats use it; public only so that every module may
// include it, as the module rule allows): which SIMD paths this build compiles, decided here
// once. Every SIMD site tests these two macros, never the compiler's own (__SSE2__, __x86_64__;
// tests/architecture/check_architecture.py holds to it), so one switch gives a build the code an
// ARM board runs:
//   PPSBENCH_HAVE_SSE2           1 where the SSE2 intrinsics paths are compiled (every x86-64:
//                                SSE2 is its baseline), else 0: the `_scalar` / one-by-one twins;
//   PPSBENCH_HAVE_AVX2_DISPATCH  1 where the AVX2 kernels are compiled beside the baseline ones
//                                and chosen at run time (x86-64 with GCC; clang refuses the
//                                32-byte vector arguments the kernels' helpers take), else 0.
// The CMake option PPSBENCH_PORTABLE_SIMD defines PPSBENCH_PORTABLE_SIMD, which sets both to 0
// on x86 too, so bench/ and callgrind measure the portable path (docs/performance.md, "The
// portable path"). GCC's vector extensions (lanes.hpp, whole_lanes.hpp) are still compiled for
// the target's baseline vectors: SSE2 here, NEON on aarch64. The run-time switch, the
// environment variable PPSBENCH_SIMD=portable, only turns the AVX2 dispatch off
// (stats/lanes.hpp, avx2_dispatch()).

#if defined(__SSE2__) && !defined(PPSBENCH_PORTABLE_SIMD)
#define PPSBENCH_HAVE_SSE2 1
#else
#define PPSBENCH_HAVE_SSE2 0
#endif

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(PPSBENCH_PORTABLE_SIMD)
#define PPSBENCH_HAVE_AVX2_DISPATCH 1
#else
#define PPSBENCH_HAVE_AVX2_DISPATCH 0
#endif
