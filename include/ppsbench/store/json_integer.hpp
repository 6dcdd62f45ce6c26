// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Reading a JSON number into a C++ integer. nlohmann's get<T>() converts with a plain cast: a
// float beyond T's range (1e35 into std::int64_t) is undefined behaviour, and a negative number
// into an unsigned type, or an unsigned one above T's maximum, silently wraps. Capture files and
// saved summaries are input, so a number that does not fit is reported, never converted.

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <type_traits>
#include <utility>

namespace ppsbench::store {

// The value of `json` as T when it is a whole number T can hold: an integer in T's range, or a
// float with such an integral value (as a hand-edited file may have); nullopt otherwise.
template <typename T>
std::optional<T> json_integer(const nlohmann::json& json) {
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
    if (json.is_number_unsigned()) {
        const auto value = json.get<std::uint64_t>();
        return std::in_range<T>(value) ? std::optional<T>(static_cast<T>(value)) : std::nullopt;
    }
    if (json.is_number_integer()) {
        const auto value = json.get<std::int64_t>();
        return std::in_range<T>(value) ? std::optional<T>(static_cast<T>(value)) : std::nullopt;
    }
    if (json.is_number_float()) {
        const double value = json.get<double>();
        // [lowest, 2^digits): both bounds are exact doubles, unlike T's maximum.
        const double upper = std::ldexp(1.0, std::numeric_limits<T>::digits);
        const double lower = std::is_signed_v<T> ? -upper : 0.0;
        if (std::isfinite(value) && std::trunc(value) == value && value >= lower && value < upper) {
            return static_cast<T>(value);
        }
    }
    return std::nullopt;
}

}  // namespace ppsbench::store
