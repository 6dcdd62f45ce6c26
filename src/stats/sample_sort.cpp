// SPDX-License-Identifier: GPL-2.0-or-later
#include "sample_sort.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>

namespace ppsbench::stats::detail {

namespace {

constexpr unsigned digit_bits = 11;
constexpr unsigned digits = (64 + digit_bits - 1) / digit_bits;  // 6
constexpr std::size_t bins = std::size_t{1} << digit_bits;
// Below this a comparison sort is as fast, and needs no counters or second buffer.
constexpr std::size_t radix_from = 2048;

// The double's bits made an unsigned key whose order is the values': a negative value's bits
// all flipped (its magnitude order reversed), a positive one's sign bit set.
std::uint64_t key_of(double v) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    const std::uint64_t negative = bits >> 63;
    return bits ^ ((0 - negative) | (std::uint64_t{1} << 63));
}

double value_of(std::uint64_t key) {
    const std::uint64_t negative = (key >> 63) ^ 1;
    const std::uint64_t bits = key ^ ((0 - negative) | (std::uint64_t{1} << 63));
    double v = 0;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

unsigned digit(std::uint64_t key, unsigned d) {
    return static_cast<unsigned>(key >> (d * digit_bits)) & (bins - 1);
}

}  // namespace

void sort_sample(std::span<double> values) {
    const std::size_t n = values.size();
    if (n < radix_from) {
        std::sort(values.begin(), values.end());
        return;
    }
    auto keys = std::make_unique_for_overwrite<std::uint64_t[]>(2 * n);
    std::uint64_t* from = keys.get();
    std::uint64_t* to = keys.get() + n;
    // Every digit's counts in one pass over the keys.
    auto counts = std::make_unique<std::array<std::size_t, bins>[]>(digits);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t key = key_of(values[i]);
        from[i] = key;
        for (unsigned d = 0; d < digits; ++d) {
            ++counts[d][digit(key, d)];
        }
    }
    for (unsigned d = 0; d < digits; ++d) {
        std::array<std::size_t, bins>& count = counts[d];
        // A digit all keys share moves nothing.
        if (count[digit(from[0], d)] == n) {
            continue;
        }
        std::size_t start = 0;
        for (std::size_t& c : count) {
            const std::size_t here = c;
            c = start;
            start += here;
        }
        // Stable: keys equal in this digit keep the order the lower digits gave them.
        for (std::size_t i = 0; i < n; ++i) {
            to[count[digit(from[i], d)]++] = from[i];
        }
        std::swap(from, to);
    }
    for (std::size_t i = 0; i < n; ++i) {
        values[i] = value_of(from[i]);
    }
}

}  // namespace ppsbench::stats::detail
