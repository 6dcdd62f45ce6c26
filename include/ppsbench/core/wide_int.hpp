// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>

namespace ppsbench::core {

// Exact 64 × 64 → 128-bit integer arithmetic in standard C++. GCC's `__int128` does this on
// 64-bit targets only: 32-bit ARM (armhf, most older Raspberry Pi systems) has none, so the
// code that needs the 128 bits uses these, on every architecture alike (one path, tested
// everywhere, tests/core/wide_int_test.cpp).
struct UInt128 {
    std::uint64_t high = 0;
    std::uint64_t low = 0;
    friend bool operator==(const UInt128&, const UInt128&) = default;
};

// a · b, exactly.
UInt128 multiply_wide(std::uint64_t a, std::uint64_t b);

// a + b modulo 2^128 (a sum of up to 2^64 products of 64-bit values cannot wrap).
UInt128 add_wide(UInt128 a, UInt128 b);

// The nearest long double (for reference values in tests and sums of squares).
long double to_long_double(UInt128 v);

// x · num / den rounded to nearest, halves away from zero, with the product held exactly in
// 128 bits: the interpolation x · num / den of a clock offset along a line, where x · num can
// exceed 2^63. den > 0. A quotient beyond the int64 range saturates to its nearest end.
std::int64_t multiply_divide_rounded(std::int64_t x, std::int64_t num, std::int64_t den);

}  // namespace ppsbench::core
