// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <span>
#include <string>

#include "ppsbench/render/table.hpp"

namespace ppsbench::render {

// A time in nanoseconds as people read it: "440 ns", "2134 ns", "38.2 µs", "1.25 ms", three
// or four significant figures; NaN (an absent figure) prints as "—". With `sign`, positive
// values get a '+' so a column of offsets lines up.
std::string format_ns(double ns, bool sign = false);

// One unit for a whole column, chosen from its largest magnitude, with enough decimals for
// three significant figures on the largest value.
struct TimeUnit {
    const char* suffix = "ns";
    double ns_per_unit = 1;
    int decimals = 0;
};
TimeUnit choose_time_unit(std::span<const double> values_ns);
std::string format_in_unit(double ns, const TimeUnit& unit, bool sign = false);

// How text and Markdown show one cell of a column (the column's unit already chosen).
std::string format_cell(const Cell& cell, Quantity quantity, const TimeUnit& unit);

// A confidence level as a percentage with the digits it was given: 0.95 → "95", 0.999 → "99.9",
// 0.999999 → "99.9999", never rounded up to a "100 %" that no interval has.
std::string confidence_percent(double level);

// A ratio limit as people typed it, "1.25", "1.50"; from 10⁶ on in exponent form ("1e+308"),
// not a number of 300 digits.
std::string ratio_limit_text(double limit);

// "×3.26" with two decimals below 10, one below 100.
std::string format_ratio(double ratio);

}  // namespace ppsbench::render
