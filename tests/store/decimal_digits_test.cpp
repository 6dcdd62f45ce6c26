// SPDX-License-Identifier: GPL-2.0-or-later
// The capture reader's word-wide decimals (store/decimal_digits.hpp) against std::from_chars:
// every length, digits or not around them, and the SSE2 and word paths of the 16-digit step
// giving the same value.
#include "store/decimal_digits.hpp"

#include <gtest/gtest.h>

#include "ppsbench/core/simd_target.hpp"

#include <charconv>
#include <random>
#include <string>

namespace ppsbench::store::detail {
namespace {

std::string random_digits(std::mt19937_64& random, std::size_t count) {
    std::string text;
    for (std::size_t i = 0; i < count; ++i) {
        text += static_cast<char>('0' + random() % 10);
    }
    return text;
}

// What comes after a number: anything but a digit, or the bytes next to the digit range.
char random_other(std::mt19937_64& random) {
    static constexpr char others[] = {',', '\n', '\r', '/', ':', ' ', '-', 'a', '\0', '\xB0'};
    return others[random() % sizeof others];
}

TEST(DecimalDigits, ScanReadsWhatFromCharsReads) {
    std::mt19937_64 random(19);
    for (int trial = 0; trial < 20000; ++trial) {
        const std::size_t count = random() % 24;
        std::string text = random_digits(random, count) + random_other(random);
        text += random_digits(random, 30);  // digits after the end do not count
        const ScannedNumber scanned = scan_digits(text.data());
        std::uint64_t expected = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + count, expected);
        if (count == 0 || count > 19) {
            EXPECT_EQ(scanned.end, nullptr) << text;
            continue;
        }
        ASSERT_EQ(error, std::errc{}) << text;
        ASSERT_EQ(scanned.end, text.data() + count) << text;
        ASSERT_EQ(scanned.value, expected) << text;
    }
}

TEST(DecimalDigits, SixteenDigitsGiveTheSameOnEveryPath) {
    std::mt19937_64 random(16);
    for (int trial = 0; trial < 20000; ++trial) {
        std::string text = random_digits(random, 16);
        const bool spoiled = trial % 3 == 0;
        if (spoiled) {
            text[random() % 16] = random_other(random);
        }
        std::uint64_t words = 7;
        const bool by_words = sixteen_digits_by_words(text.data(), words);
        EXPECT_EQ(by_words, !spoiled) << text;
        if (!spoiled) {
            EXPECT_EQ(words, std::stoull(text)) << text;
        }
#if PPSBENCH_HAVE_SSE2
        std::uint64_t lanes = 7;
        EXPECT_EQ(sixteen_digits_sse2(text.data(), lanes), by_words) << text;
        if (by_words) {
            EXPECT_EQ(lanes, words) << text;
        }
#endif
    }
}

}  // namespace
}  // namespace ppsbench::store::detail
