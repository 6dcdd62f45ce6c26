#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ppsbench::report {

// What a column holds. Renderers choose how to show it: text and Markdown pick one unit per
// time column (ns, µs, ms) so a column reads at a glance; CSV and JSON keep raw numbers.
enum class Quantity {
    text,            // labels, verdicts
    time_ns,         // a duration or offset in nanoseconds
    signed_time_ns,  // the same, where the sign matters (a mean offset): shown with + or −
    count,           // pulses, missed pulses
    ratio,           // × a baseline, with an optional confidence interval
    plain,           // a dimensionless number (ADEV)
    percent,         // 0–100, shown with one decimal and a % sign
};

struct Cell {
    std::string text;                                         // Quantity::text
    double value = std::numeric_limits<double>::quiet_NaN();  // NaN: absent, shown as "—"
    // Quantity::ratio: the confidence interval, shown as "×3.26 (3.10–3.43)".
    double ci_lo = std::numeric_limits<double>::quiet_NaN();
    double ci_hi = std::numeric_limits<double>::quiet_NaN();

    static Cell of_text(std::string t) { return Cell{std::move(t)}; }
    static Cell of(double v) { return Cell{{}, v}; }
    static Cell of_ratio(double v, double lo, double hi) { return Cell{{}, v, lo, hi}; }
    bool absent() const { return std::isnan(value); }
};

struct Column {
    std::string title;  // for people: "raw PPS jitter (σ)"
    std::string key;    // for machines: "offset_stddev_ns"
    Quantity quantity = Quantity::text;
};

// A table model separate from rendering (as Google Benchmark separates runs from reporters):
// the library fills it; renderers only lay it out.
struct Table {
    std::string title;
    std::vector<Column> columns;
    std::vector<std::vector<Cell>> rows;
    // Lines printed under the table: definitions, "simulated" marks, warnings, verdicts.
    std::vector<std::string> footnotes;
};

}  // namespace ppsbench::report
