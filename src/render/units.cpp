// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/render/units.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <string>

namespace ppsbench::render {

namespace {

constexpr const char* absent = "—";

// A value that rounds to zero at the decimals shown is zero: "-0 ns" (a mean of −0.3 ns) would
// claim a sign the printed digits cannot carry, and "+0 ns" a precision they do not have.
bool rounds_to_zero(double v, int decimals) {
    return std::round(std::fabs(v) * std::pow(10.0, decimals)) == 0;
}

}  // namespace

TimeUnit choose_time_unit(std::span<const double> values_ns) {
    double largest = 0;
    for (double v : values_ns) {
        if (std::isfinite(v)) {
            largest = std::max(largest, std::fabs(v));
        }
    }
    TimeUnit unit;
    // Up to 9999 ns stays in ns: the write-up's "2134 ns" reads better than "2.13 µs".
    if (largest >= 1e10) {
        unit = {"s", 1e9, 0};
    } else if (largest >= 1e7) {
        unit = {"ms", 1e6, 0};
    } else if (largest >= 1e4) {
        unit = {"µs", 1e3, 0};
    } else {
        return {"ns", 1, 0};
    }
    const double scaled = largest / unit.ns_per_unit;
    unit.decimals = scaled >= 100 ? 0 : (scaled >= 10 ? 1 : 2);
    return unit;
}

std::string format_in_unit(double ns, const TimeUnit& unit, bool sign) {
    if (!std::isfinite(ns)) {
        return absent;
    }
    const double v = ns / unit.ns_per_unit;
    if (rounds_to_zero(v, unit.decimals)) {
        return fmt::format("{:.{}f} {}", 0.0, unit.decimals, unit.suffix);
    }
    return sign ? fmt::format("{:+.{}f} {}", v, unit.decimals, unit.suffix)
                : fmt::format("{:.{}f} {}", v, unit.decimals, unit.suffix);
}

std::string format_ns(double ns, bool sign) {
    const double one[] = {ns};
    return format_in_unit(ns, choose_time_unit(one), sign);
}

std::string format_ratio(double ratio) {
    if (!std::isfinite(ratio)) {
        return absent;
    }
    const double a = std::fabs(ratio);
    const int decimals = a >= 100 ? 0 : (a >= 10 ? 1 : 2);
    return fmt::format("×{:.{}f}", rounds_to_zero(ratio, decimals) ? 0.0 : ratio, decimals);
}

std::string format_cell(const Cell& cell, Quantity quantity, const TimeUnit& unit) {
    switch (quantity) {
        case Quantity::text:
            return cell.text;
        case Quantity::time_ns:
            return format_in_unit(cell.value, unit, false);
        case Quantity::signed_time_ns:
            return format_in_unit(cell.value, unit, true);
        case Quantity::count:
            return cell.absent() ? absent : fmt::format("{:.0f}", cell.value);
        case Quantity::ratio: {
            std::string text = format_ratio(cell.value);
            if (std::isfinite(cell.ci_lo) && std::isfinite(cell.ci_hi)) {
                text += fmt::format(" ({:.2f}–{:.2f})", cell.ci_lo, cell.ci_hi);
            }
            return text;
        }
        case Quantity::percent:
            return cell.absent() ? absent : fmt::format("{:.1f} %", cell.value);
        case Quantity::plain:
            return cell.absent() ? absent : fmt::format("{:.3e}", cell.value);
    }
    return cell.text;
}

std::string confidence_percent(double level) {
    // Ten significant digits hide the binary fraction (0.95 × 100 = 95.00000000000001) and keep
    // every digit a person types; a level closer to 1 than that gets the digits it needs to
    // stay below 100.
    const double percent = level * 100;
    std::string text = fmt::format("{:.10g}", percent);
    for (int digits = 11; percent < 100 && std::stod(text) >= 100 && digits <= 17; ++digits) {
        text = fmt::format("{:.{}g}", percent, digits);
    }
    return text;
}

std::string ratio_limit_text(double limit) {
    return std::fabs(limit) < 1e6 ? fmt::format("{:.2f}", limit) : fmt::format("{:.3g}", limit);
}

}  // namespace ppsbench::render
