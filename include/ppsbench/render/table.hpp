// SPDX-License-Identifier: GPL-2.0-or-later
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

// Where a row's run came from, kept apart from its display text "stock (simulated)" so CSV can
// give the label, the simulated flag and the file their own columns.
struct RunSource {
    std::string label;
    bool simulated = false;
    std::string file;
};

struct Cell {
    std::string text;                                         // Quantity::text
    double value = std::numeric_limits<double>::quiet_NaN();  // NaN: absent, shown as "—"
    // Quantity::ratio: the confidence interval, shown as "×3.26 (3.10–3.43)".
    double ci_lo = std::numeric_limits<double>::quiet_NaN();
    double ci_hi = std::numeric_limits<double>::quiet_NaN();

    static Cell of_text(std::string t) {
        Cell cell;
        cell.text = std::move(t);
        return cell;
    }
    static Cell of(double v) {
        Cell cell;
        cell.value = v;
        return cell;
    }
    static Cell of_ratio(double v, double lo, double hi) {
        Cell cell;
        cell.value = v;
        cell.ci_lo = lo;
        cell.ci_hi = hi;
        return cell;
    }
    bool absent() const { return std::isnan(value); }
    // A run's row label: the text people read, and the source machines read.
    std::optional<RunSource> run;
    static Cell of_run(RunSource source) {
        Cell cell = of_text(source.label + (source.simulated ? " (simulated)" : ""));
        cell.run = std::move(source);
        return cell;
    }
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
