// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What an importer of a series (chrony's tracking.log and statistics.log, ntpd's loopstats,
// phc2sys's offsets) hands back: rows for a CSV with a header, each value as the log wrote it
// (numbers only: a machine format carries no text beyond the header, names and states).

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "ppsbench/chrony/logs.hpp"

namespace ppsbench::import {

struct SeriesImport {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;  // each as wide as `columns`
    std::size_t lines = 0;
    std::size_t problem_count = 0;
    std::vector<chrony::LogProblem> problems;
    // One line each, for the user, printed after the skipped lines (chronyd restarts, the
    // program's own figures beside ours).
    std::vector<std::string> notes;
    // One line each, printed as warnings: the program's own figures contradict the import.
    std::vector<std::string> warnings;
};

// An empty series with these columns.
SeriesImport with_columns(std::vector<std::string> columns);

// The header line, then one line per row, comma-separated.
void write_series_csv(const SeriesImport& series, std::ostream& out);

// A duration or number exactly as the log wrote it: 15 significant digits give back a log's 7
// (2.234e-11 s is 0.02234 ns), where a fixed number of decimals would round it away.
std::string exact(double value);

}  // namespace ppsbench::import
