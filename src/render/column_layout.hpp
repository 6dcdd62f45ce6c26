// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>
#include <vector>

#include "ppsbench/render/table.hpp"
#include "ppsbench/render/units.hpp"

namespace ppsbench::render {

// The cells of a table as text and Markdown show them: one unit per time column, chosen from
// the column's values. Shared by the two human-facing renderers.
struct FormattedTable {
    std::vector<std::string> headers;
    std::vector<std::vector<std::string>> rows;
};

FormattedTable format_for_people(const Table& table);

}  // namespace ppsbench::render
