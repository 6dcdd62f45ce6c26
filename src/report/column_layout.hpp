#pragma once

#include <string>
#include <vector>

#include "ppsbench/report/table.hpp"
#include "ppsbench/report/units.hpp"

namespace ppsbench::report {

// The cells of a table as text and Markdown show them: one unit per time column, chosen from
// the column's values. Shared by the two human-facing renderers.
struct FormattedTable {
    std::vector<std::string> headers;
    std::vector<std::vector<std::string>> rows;
};

FormattedTable format_for_people(const Table& table);

}  // namespace ppsbench::report
