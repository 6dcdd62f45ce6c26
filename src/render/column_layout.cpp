// SPDX-License-Identifier: GPL-2.0-or-later
#include "column_layout.hpp"

namespace ppsbench::render {

FormattedTable format_for_people(const Table& table) {
    FormattedTable formatted;
    std::vector<TimeUnit> units;
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
        formatted.headers.push_back(table.columns[c].title);
    }
    for (const auto& row : table.rows) {
        std::vector<std::string> cells;
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            cells.push_back(c < row.size()
                                ? format_cell(row[c], table.columns[c].quantity, units[c])
                                : std::string());
        }
        formatted.rows.push_back(std::move(cells));
    }
    return formatted;
}

}  // namespace ppsbench::render
