// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/duration.hpp"

#include <fmt/format.h>
#include <array>
#include <charconv>
#include <cmath>

#include "ppsbench/core/error.hpp"

namespace ppsbench::core {

namespace {

struct Unit {
    std::string_view suffix;
    double ns;
};

// Longest suffixes first so "ms" is not read as "m" followed by garbage.
constexpr std::array<Unit, 9> units{{{"ns", 1.0},
                                     {"us", 1e3},
                                     {"µs", 1e3},
                                     {"ms", 1e6},
                                     {"s", 1e9},
                                     {"m", 60e9},
                                     {"min", 60e9},
                                     {"h", 3600e9},
                                     {"d", 86400e9}}};

[[noreturn]] void reject(std::string_view text, std::string_view what) {
    throw UsageError(fmt::format(
        "{}: '{}' is not a duration; use a positive number with a unit, e.g. 30s, 10m, 1h, 100ms",
        what, text));
}

}  // namespace

Duration parse_duration(std::string_view text, std::string_view what) {
    double value = 0;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc{} || ptr == begin) {
        reject(text, what);
    }
    std::string_view suffix(ptr, static_cast<std::size_t>(end - ptr));
    if (suffix.empty() && value > 0) {
        // A bare number is ambiguous: "--max-sigma 3" meant 3 µs, not 3 s.
        throw UsageError(fmt::format("{}: '{}' has no unit; say which, e.g. {}us, {}ms or {}s",
                                     what, text, text, text, text));
    }
    double scale = 0;  // stays 0 for an unknown (or missing) unit
    for (const auto& unit : units) {
        if (suffix == unit.suffix) {
            scale = unit.ns;
            break;
        }
    }
    if (scale == 0) {
        reject(text, what);
    }
    const double ns = value * scale;
    // 2^62 ns is ~146 years: anything longer is a typo, not a plan.
    if (!std::isfinite(ns) || ns < 1.0 || ns > 4.6e18) {
        reject(text, what);
    }
    return Duration{static_cast<std::int64_t>(std::llround(ns))};
}

namespace {

// x rounded to `digits` significant digits: 999.99 ms to 3 digits is 1 s, which must be printed
// in seconds ("1 s"), not as "1e+03 ms".
double round_significant(double x, int digits) {
    if (x == 0 || !std::isfinite(x)) {
        return x;
    }
    const int exponent = digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(x))));
    // Multiply by a whole power of ten in both directions: 999999987 ns to 4 digits must be
    // exactly 1e9 (10000 · 1e5), not 999999999.99… (10000 / 1e-5).
    if (exponent >= 0) {
        const double scale = std::pow(10.0, exponent);
        return std::round(x * scale) / scale;
    }
    const double step = std::pow(10.0, -exponent);
    return std::round(x / step) * step;
}

}  // namespace

std::string format_duration(Duration d) {
    const std::int64_t ns = d.count();
    const std::int64_t abs_ns = ns < 0 ? -ns : ns;
    if (abs_ns < 1'000) {
        return fmt::format("{} ns", ns);
    }
    if (abs_ns < 60 * ns_per_second) {
        const double rounded = round_significant(static_cast<double>(ns), 3);
        const double magnitude = std::fabs(rounded);
        if (magnitude < 1e6) {
            return fmt::format("{:.3g} µs", rounded / 1e3);
        }
        if (magnitude < 1e9) {
            return fmt::format("{:.3g} ms", rounded / 1e6);
        }
        if (magnitude < 60e9) {
            return fmt::format("{:.3g} s", rounded / 1e9);
        }
    }
    const std::int64_t total_s = ns / ns_per_second;
    const std::int64_t h = total_s / 3600;
    const std::int64_t m = (total_s / 60) % 60;
    const std::int64_t s = total_s % 60;
    if (h > 0) {
        return fmt::format("{}h {:02}m {:02}s", h, m, s);
    }
    return fmt::format("{}m {:02}s", m, s);
}

std::string format_duration_option(Duration d) {
    const double rounded = round_significant(static_cast<double>(d.count()), 4);
    const double magnitude = std::fabs(rounded);
    if (magnitude >= 1e9) {
        return fmt::format("{:g}s", rounded / 1e9);
    }
    if (magnitude >= 1e6) {
        return fmt::format("{:g}ms", rounded / 1e6);
    }
    if (magnitude >= 1e3) {
        return fmt::format("{:g}us", rounded / 1e3);
    }
    return fmt::format("{:g}ns", rounded);
}

}  // namespace ppsbench::core
