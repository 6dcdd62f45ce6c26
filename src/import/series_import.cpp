// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/series_import.hpp"

#include <fmt/format.h>

namespace ppsbench::import {

SeriesImport with_columns(std::vector<std::string> columns) {
    SeriesImport series;
    series.columns = std::move(columns);
    return series;
}

void write_series_csv(const SeriesImport& series, std::ostream& out) {
    for (std::size_t i = 0; i < series.columns.size(); ++i) {
        out << (i == 0 ? "" : ",") << series.columns[i];
    }
    out << "\n";
    for (const auto& row : series.rows) {
        for (std::size_t i = 0; i < row.size(); ++i) {
            out << (i == 0 ? "" : ",") << row[i];
        }
        out << "\n";
    }
}

std::string exact(double value) {
    return fmt::format("{:.15g}", value);
}

}  // namespace ppsbench::import
