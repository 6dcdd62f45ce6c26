// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Private to store: the unsigned decimals behind the capture reader's fast path (nearly every
// byte of a capture file is a digit of a sequence number or timestamp), eight digits to a word
// (little-endian SWAR, after Lemire's "fast float" parser). Defined in the header so the
// pulse-line loop can inline them.

#include <bit>
#include <cstdint>
#include <cstring>

#include "ppsbench/core/simd_target.hpp"

#if PPSBENCH_HAVE_SSE2
#include <emmintrin.h>
#endif

namespace ppsbench::store::detail {

// The fast path reads words in memory order with the first byte lowest; elsewhere (big-endian
// machines) every line takes the general path, which gives the same pulses.
inline constexpr bool words_are_little_endian = std::endian::native == std::endian::little;

inline std::uint64_t load_word(const char* p) {
    std::uint64_t word = 0;
    std::memcpy(&word, p, sizeof word);
    return word;
}

inline constexpr std::uint64_t zero_digits = 0x3030303030303030;  // "00000000"

// `digits`: a word XOR zero_digits. The high bit of each byte that is not 0..9 (a carry can only
// disturb the bytes above the first such byte, which never count).
inline std::uint64_t non_digit_bytes(std::uint64_t digits) {
    return ((digits + 0x7676767676767676) | digits) & 0x8080808080808080;
}

// The value of eight digits 0..9, the first (most significant) in the lowest byte: a 19-digit
// timestamp costs three multiply steps instead of a 19-step multiply-add chain.
inline std::uint64_t eight_digit_value(std::uint64_t digits) {
    digits = (digits * 10) + (digits >> 8);
    return (((digits & 0x000000FF000000FF) * (100 + (1000000ULL << 32))) +
            (((digits >> 16) & 0x000000FF000000FF) * (1 + (10000ULL << 32)))) >>
           32;
}

// The value of the first `count` (1..7) digits of a word: shifted up, the bytes below them read
// as leading zeros.
inline std::uint64_t leading_digits_value(std::uint64_t digits, int count) {
    return eight_digit_value(digits << (64 - 8 * count));
}

inline constexpr std::uint64_t powers_of_ten[] = {1,      10,      100,      1000,     10000,
                                                  100000, 1000000, 10000000, 100000000};

// The value of the 16 digits at p into `out`: two words of eight (any machine). False, with
// `out` untouched, when a byte is not a digit.
inline bool sixteen_digits_by_words(const char* p, std::uint64_t& out) {
    const std::uint64_t high = load_word(p) ^ zero_digits;
    const std::uint64_t low = load_word(p + 8) ^ zero_digits;
    if ((non_digit_bytes(high) | non_digit_bytes(low)) != 0) {
        return false;
    }
    out = eight_digit_value(high) * powers_of_ten[8] + eight_digit_value(low);
    return true;
}

#if PPSBENCH_HAVE_SSE2
// The same in one 16-byte register (SSE2, every x86-64): the digits paired, the pairs to four
// digits, those to eight, by the steps of eight_digit_value; integer products, exact, so both
// give the same value.
inline bool sixteen_digits_sse2(const char* p, std::uint64_t& out) {
    const __m128i text = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i digits = _mm_sub_epi8(text, _mm_set1_epi8('0'));
    // digits + 118 reaches 128 (saturating at 255) exactly for the bytes that are not 0..9.
    if (_mm_movemask_epi8(_mm_adds_epu8(digits, _mm_set1_epi8(118))) != 0) {
        return false;
    }
    // 16-bit lanes hold two digits, the first low: (first + 256 second) * (1 + 256 * 10) is
    // first + 256 (10 first + second) once 2560 second falls off the lane's top. (Hidden from
    // the optimizer, which would make the one multiply four shifts and adds.)
    __m128i pair_weights = _mm_set1_epi16(1 + 2560);
    __asm__("" : "+x"(pair_weights));
    const __m128i pairs = _mm_srli_epi16(_mm_mullo_epi16(digits, pair_weights), 8);
    // 32-bit lanes: 100 * first pair + second.
    const __m128i fours = _mm_madd_epi16(pairs, _mm_set1_epi32(100 | (1 << 16)));
    // 64-bit lanes: 10000 * first four + second, below 10^8.
    const __m128i eights =
        _mm_add_epi64(_mm_mul_epu32(fours, _mm_set1_epi64x(10000)), _mm_srli_epi64(fours, 32));
    // 10^8 * first eight + second.
    const __m128i scaled = _mm_mul_epu32(eights, _mm_set_epi64x(1, 100'000'000));
    const __m128i sum = _mm_add_epi64(scaled, _mm_unpackhi_epi64(scaled, scaled));
    out = static_cast<std::uint64_t>(_mm_cvtsi128_si64(sum));
    return true;
}
#endif

// The value of the 16 digits at p into `out`; false when a byte is not a digit.
inline bool sixteen_digits(const char* p, std::uint64_t& out) {
#if PPSBENCH_HAVE_SSE2
    return sixteen_digits_sse2(p, out);
#else
    return sixteen_digits_by_words(p, out);
#endif
}

// A number scanned: where it ends (nullptr when it could not be), and its value.
struct ScannedNumber {
    const char* end = nullptr;
    std::uint64_t value = 0;
};

// The unsigned decimal of 1 to 19 digits at p (so it cannot overflow); for anything else (no
// digit, 20 digits or more) end is nullptr, and the caller hands the line to the general parser
// to accept or reject by from_chars' rules. Reads the 24 bytes at p whatever the number's
// length: the caller keeps them readable.
inline ScannedNumber scan_digits(const char* p) {
    const std::uint64_t first = load_word(p) ^ zero_digits;
    const std::uint64_t first_other = non_digit_bytes(first);
    if (first_other != 0) {
        const int count = std::countr_zero(first_other) / 8;
        if (count == 0) {
            return {};
        }
        return {p + count, leading_digits_value(first, count)};
    }
    const std::uint64_t second = load_word(p + 8) ^ zero_digits;
    const std::uint64_t second_other = non_digit_bytes(second);
    const std::uint64_t value = eight_digit_value(first);
    if (second_other != 0) {
        const int count = std::countr_zero(second_other) / 8;
        return {p + 8 + count,
                count == 0 ? value
                           : value * powers_of_ten[count] + leading_digits_value(second, count)};
    }
    const std::uint64_t sixteen = value * powers_of_ten[8] + eight_digit_value(second);
    const std::uint64_t third = load_word(p + 16) ^ zero_digits;
    const int count = std::countr_zero(non_digit_bytes(third)) / 8;  // 64 / 8 when all digits
    if (count > 3) {
        return {};
    }
    return {
        p + 16 + count,
        count == 0 ? sixteen : sixteen * powers_of_ten[count] + leading_digits_value(third, count)};
}

}  // namespace ppsbench::store::detail
