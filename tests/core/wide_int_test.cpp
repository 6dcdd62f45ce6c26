// SPDX-License-Identifier: GPL-2.0-or-later
// Exact 128-bit products and the rounded multiply-divide, on values that need all 128 bits; the
// expected values are Python's exact integers (x * num, then (|p| + den // 2) // den).
#include "ppsbench/core/wide_int.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>

namespace ppsbench::core {
namespace {

constexpr std::int64_t max64 = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t min64 = std::numeric_limits<std::int64_t>::min();

TEST(WideInt, MultipliesExactlyIntoTheHighWord) {
    EXPECT_EQ(multiply_wide(0, 12345), (UInt128{0, 0}));
    EXPECT_EQ(multiply_wide(std::uint64_t{1} << 32, std::uint64_t{1} << 32), (UInt128{1, 0}));
    // (2^64 − 1)² = 2^128 − 2^65 + 1
    const auto all = std::numeric_limits<std::uint64_t>::max();
    EXPECT_EQ(multiply_wide(all, all), (UInt128{all - 1, 1}));
    // 10^18 · 10^18 = 10^36 = 54210108624275221 · 2^64 + 12919594847110692864
    EXPECT_EQ(multiply_wide(1'000'000'000'000'000'000U, 1'000'000'000'000'000'000U),
              (UInt128{54210108624275221U, 12919594847110692864U}));
}

TEST(WideInt, AddsWithTheCarry) {
    const auto all = std::numeric_limits<std::uint64_t>::max();
    EXPECT_EQ(add_wide({0, all}, {0, 1}), (UInt128{1, 0}));
    EXPECT_EQ(add_wide({2, all}, {3, all}), (UInt128{6, all - 1}));
    EXPECT_EQ(to_long_double({1, 0}), 18446744073709551616.0L);
}

TEST(WideInt, MultiplyDivideIsExactWhereTheProductNeeds128Bits) {
    EXPECT_EQ(multiply_divide_rounded(max64, max64, max64), max64);
    EXPECT_EQ(multiply_divide_rounded(1'000'000'000'000'000'000, 1'000'000'000'000'000'000,
                                      1'000'000'000'000'000'001),
              999'999'999'999'999'999);
    EXPECT_EQ(multiply_divide_rounded(min64, std::int64_t{1} << 62, std::int64_t{1} << 62), min64);
    EXPECT_EQ(multiply_divide_rounded(1'099'511'640'121, 1'099'511'627'775, 8'388'615),
              144'115'069'434'823'354);
    EXPECT_EQ(
        multiply_divide_rounded(-4'611'686'018'427'387'909, -2'199'023'255'552, 35'184'372'088'831),
        288'230'376'151'719'936);
    EXPECT_EQ(multiply_divide_rounded(123'456'789'012'345'678, 987'654'321'098'765'432,
                                      999'999'999'999'999'989),
              121'932'631'137'021'796);
}

TEST(WideInt, MultiplyDivideRoundsHalvesAwayFromZeroAndSaturates) {
    EXPECT_EQ(multiply_divide_rounded(7, 5, 2), 18);
    EXPECT_EQ(multiply_divide_rounded(-7, 5, 2), -18);
    EXPECT_EQ(multiply_divide_rounded(-7, 3, 2), -11);
    EXPECT_EQ(multiply_divide_rounded(7, -3, 4), -5);  // −5.25
    EXPECT_EQ(multiply_divide_rounded(0, max64, 1), 0);
    EXPECT_EQ(multiply_divide_rounded(3'000'000'000, 10'000'000'000, 3), max64);  // 10^19
    EXPECT_EQ(multiply_divide_rounded(-3'000'000'000, 10'000'000'000, 3), min64);
    EXPECT_EQ(multiply_divide_rounded(max64, max64, 1), max64);
}

#if defined(__SIZEOF_INT128__)
// Where the compiler has a 128-bit integer (64-bit targets), the two agree on random values.
TEST(WideInt, AgreesWithTheCompilers128BitIntegerWhereThereIsOne) {
    __extension__ using Wide = __int128;
    std::mt19937_64 random(36);
    for (int i = 0; i < 100'000; ++i) {
        const auto x = static_cast<std::int64_t>(random()) >> (random() % 40);
        const auto num = static_cast<std::int64_t>(random()) >> (random() % 40);
        const auto den = static_cast<std::int64_t>(random() >> 1 >> (random() % 60)) + 1;
        const Wide p = static_cast<Wide>(x) * num;
        const Wide q = p >= 0 ? (p + den / 2) / den : (p - den / 2) / den;
        if (q > max64 || q < min64) {
            continue;
        }
        ASSERT_EQ(multiply_divide_rounded(x, num, den), static_cast<std::int64_t>(q))
            << x << " · " << num << " / " << den;
    }
}
#endif

}  // namespace
}  // namespace ppsbench::core
