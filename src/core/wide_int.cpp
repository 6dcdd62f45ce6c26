// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/wide_int.hpp"

#include <limits>

namespace ppsbench::core {

namespace {

std::uint64_t magnitude(std::int64_t v) {
    // Unsigned negation: defined for INT64_MIN too, whose magnitude 2^63 has no int64.
    return v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

// floor(n / d) for n < d · 2^64 (so the quotient fits in 64 bits), by binary long division:
// 64 steps of shift and subtract, the remainder kept below d.
std::uint64_t divide_wide(UInt128 n, std::uint64_t d) {
    std::uint64_t remainder = n.high;  // < d by the precondition
    std::uint64_t quotient = 0;
    for (int bit = 63; bit >= 0; --bit) {
        // remainder · 2 + the next bit may need 65 bits: the carry says it is ≥ 2^64 > d.
        const bool carry = (remainder >> 63) != 0;
        remainder = (remainder << 1) | ((n.low >> bit) & 1U);
        quotient <<= 1;
        if (carry || remainder >= d) {
            remainder -= d;  // modulo 2^64: right, as the true value was below 2 · d
            quotient |= 1U;
        }
    }
    return quotient;
}

}  // namespace

UInt128 multiply_wide(std::uint64_t a, std::uint64_t b) {
    // Schoolbook on 32-bit halves: four partial products of at most 64 bits each.
    const std::uint64_t a_lo = a & 0xffff'ffffU;
    const std::uint64_t a_hi = a >> 32;
    const std::uint64_t b_lo = b & 0xffff'ffffU;
    const std::uint64_t b_hi = b >> 32;
    const std::uint64_t lo_lo = a_lo * b_lo;
    const std::uint64_t hi_lo = a_hi * b_lo;
    const std::uint64_t lo_hi = a_lo * b_hi;
    const std::uint64_t hi_hi = a_hi * b_hi;
    // The middle column: three values below 2^32 · 2^32 summed in 64 bits without wrapping.
    const std::uint64_t middle = (lo_lo >> 32) + (hi_lo & 0xffff'ffffU) + (lo_hi & 0xffff'ffffU);
    return {hi_hi + (hi_lo >> 32) + (lo_hi >> 32) + (middle >> 32),
            (middle << 32) | (lo_lo & 0xffff'ffffU)};
}

UInt128 add_wide(UInt128 a, UInt128 b) {
    const std::uint64_t low = a.low + b.low;
    return {a.high + b.high + (low < a.low ? 1U : 0U), low};
}

long double to_long_double(UInt128 v) {
    return static_cast<long double>(v.high) * 18446744073709551616.0L +
           static_cast<long double>(v.low);
}

std::int64_t multiply_divide_rounded(std::int64_t x, std::int64_t num, std::int64_t den) {
    const bool negative = (x < 0) != (num < 0);
    const auto d = static_cast<std::uint64_t>(den);
    // |x · num| + d/2, then floor division: the magnitude rounded, halves away from zero.
    const UInt128 n = add_wide(multiply_wide(magnitude(x), magnitude(num)), {0, d / 2});
    const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
    if (n.high >= d) {  // the quotient needs more than 64 bits
        return negative ? std::numeric_limits<std::int64_t>::min()
                        : std::numeric_limits<std::int64_t>::max();
    }
    const std::uint64_t q = divide_wide(n, d);
    if (q > limit) {
        return negative ? std::numeric_limits<std::int64_t>::min()
                        : std::numeric_limits<std::int64_t>::max();
    }
    return negative ? static_cast<std::int64_t>(std::uint64_t{0} - q)
                    : static_cast<std::int64_t>(q);
}

}  // namespace ppsbench::core
