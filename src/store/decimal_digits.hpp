// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Private to store: the unsigned decimal parser behind the capture reader's fast path (nearly
// every byte of a capture file is a digit of a sequence number or timestamp). Defined in the
// header so the pulse-line scan can inline it, as it did when both were in one file.

#include <bit>
#include <cstdint>
#include <cstring>

namespace ppsbench::store::detail {

// Up to eight ASCII digits at once (little-endian SWAR, after Lemire's "fast float" parser): a
// 19-digit timestamp costs three multiply steps instead of a 19-step multiply-add chain.
// `digits`: eight bytes 0..9, the first digit in the lowest byte.
inline std::uint64_t eight_digit_value(std::uint64_t digits) {
    digits = (digits * 10) + (digits >> 8);
    return (((digits & 0x000000FF000000FF) * (100 + (1000000ULL << 32))) +
            (((digits >> 16) & 0x000000FF000000FF) * (1 + (10000ULL << 32)))) >>
           32;
}

inline constexpr std::uint64_t powers_of_ten[] = {1,      10,      100,      1000,     10000,
                                                  100000, 1000000, 10000000, 100000000};

// The unsigned decimal at pos, if it has 1 to 19 digits (so it cannot overflow): its end, or
// nullptr for anything else (a sign, no digit, 20 digits or more), which the caller hands to
// the general parser to accept or reject by from_chars' rules.
inline const char* parse_digits(const char* pos, const char* end, std::uint64_t& out) {
    constexpr std::ptrdiff_t max_digits = 19;
    std::uint64_t value = 0;
    const char* p = pos;
    bool ended = false;  // a non-digit was seen
    if constexpr (std::endian::native == std::endian::little) {
        // Eight bytes at a time. A shorter run of digits (a sequence number, a timestamp's last
        // digits) ends at the first byte that is not a digit; shifted up, the bytes below it
        // read as leading zeros. No digit-by-digit loop while eight bytes remain.
        while (end - p >= 8) {
            std::uint64_t chunk = 0;
            std::memcpy(&chunk, p, sizeof chunk);
            const std::uint64_t digits = chunk ^ 0x3030303030303030;  // a digit byte is 0..9
            // The high bit of each byte that is not 0..9 (a carry can only disturb the bytes
            // above the first such byte, which do not count).
            const std::uint64_t other =
                ((digits + 0x7676767676767676) | digits) & 0x8080808080808080;
            const int length = other == 0 ? 8 : std::countr_zero(other) / 8;
            if (p - pos + length > max_digits) {
                return nullptr;
            }
            if (length > 0) {
                value = value * powers_of_ten[length] +
                        eight_digit_value(length == 8 ? digits : digits << (8 * (8 - length)));
                p += length;
            }
            if (length < 8) {
                ended = true;
                break;
            }
        }
    }
    while (!ended && p < end && static_cast<unsigned char>(*p - '0') < 10) {
        if (p - pos == max_digits) {
            return nullptr;
        }
        value = value * 10 + static_cast<std::uint64_t>(*p - '0');
        ++p;
    }
    if (p == pos) {
        return nullptr;
    }
    out = value;
    return p;
}

}  // namespace ppsbench::store::detail
