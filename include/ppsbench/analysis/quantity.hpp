// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

namespace ppsbench::analysis {

// What a figure is, so that every output shows it right: text and Markdown pick one unit per
// time column (ns, µs, ms), CSV and JSON keep raw numbers, Prometheus converts times to seconds.
enum class Quantity {
    text,            // labels, verdicts
    time_ns,         // a duration or offset in nanoseconds
    signed_time_ns,  // the same, where the sign matters (a mean offset): shown with + or −
    count,           // pulses, missed pulses
    ratio,           // × a baseline, with an optional confidence interval
    plain,           // a dimensionless number (ADEV)
    percent,         // 0–100, shown with one decimal and a % sign
};

}  // namespace ppsbench::analysis
