// SPDX-License-Identifier: GPL-2.0-or-later
#include "column_layout.hpp"

#include <cmath>

namespace ppsbench::render {

namespace {

// One unit per column reads best while its values are of one size. A row far smaller than the
// largest (the assert edge's 6 µs RMS beside the clear edge's 100 ms, with --edge both) would
// show as "0 ms" in the column's unit, a figure it is not: then every cell of that column gets
// its own unit.
bool shares_unit(const std::vector<double>& values, const TimeUnit& unit) {
    const double scale = std::pow(10.0, unit.decimals);
    for (const double v : values) {
        if (std::isfinite(v) && v != 0 &&
            std::round(std::fabs(v) / unit.ns_per_unit * scale) == 0) {
            return false;
        }
    }
    return true;
}

}  // namespace

FormattedTable format_for_people(const Table& table) {
    FormattedTable formatted;
    std::vector<TimeUnit> units;
    std::vector<bool> own_unit;  // per column: each cell in its own unit
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        std::vector<double> values;
        for (const auto& row : table.rows) {
            if (c < row.size()) {
                values.push_back(row[c].value);
            }
        }
        const auto quantity = table.columns[c].quantity;
        const bool is_time = quantity == Quantity::time_ns || quantity == Quantity::signed_time_ns;
        units.push_back(is_time ? choose_time_unit(values) : TimeUnit{});
        own_unit.push_back(is_time && !shares_unit(values, units.back()));
        formatted.headers.push_back(table.columns[c].title);
    }
    for (const auto& row : table.rows) {
        std::vector<std::string> cells;
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            if (c >= row.size()) {
                cells.emplace_back();
                continue;
            }
            const double one[] = {row[c].value};
            cells.push_back(format_cell(row[c], table.columns[c].quantity,
                                        own_unit[c] ? choose_time_unit(one) : units[c]));
        }
        formatted.rows.push_back(std::move(cells));
    }
    return formatted;
}

}  // namespace ppsbench::render
