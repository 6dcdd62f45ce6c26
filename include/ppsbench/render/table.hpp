#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "ppsbench/analysis/quantity.hpp"

namespace ppsbench::render {

// What a column holds (the metric registry's kinds): renderers choose how to show it.
using analysis::Quantity;

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

}  // namespace ppsbench::render
