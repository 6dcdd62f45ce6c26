// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "ppsbench/render/renderer.hpp"

namespace ppsbench::render {

namespace {

std::string quote(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) {
        return text;
    }
    std::string quoted = "\"";
    for (char c : text) {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

// A run label column becomes three: label, simulated (true/false) and file, so a spreadsheet
// can filter on them; every row of such a column carries its RunSource.
bool splits_run_column(const Table& table, std::size_t c) {
    return table.columns[c].key == "run" && !table.rows.empty() &&
           std::all_of(table.rows.begin(), table.rows.end(),
                       [c](const auto& row) { return row[c].run.has_value(); });
}

// Machine-friendly (docs/csv.md): column keys as the header, times as ns rounded to 0.001 ns
// (the timestamps are whole nanoseconds; further digits are float noise, "4720.059999999999")
// and printed in the shortest form that reads back to that value, counts as integers, ratios
// and dimensionless figures to 6 significant digits; empty fields for absent figures.
// Footnotes are left out: a CSV is data.
class CsvRenderer final : public Renderer {
  public:
    void render(const Table& table, std::ostream& out) const override {
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            out << (c > 0 ? "," : "");
            if (splits_run_column(table, c)) {
                out << "label,simulated,file";
                continue;
            }
            out << quote(table.columns[c].key);
            if (table.columns[c].quantity == Quantity::ratio) {
                out << "," << quote(table.columns[c].key + "_ci_lo") << ","
                    << quote(table.columns[c].key + "_ci_hi");
            }
        }
        out << "\n";
        for (const auto& row : table.rows) {
            for (std::size_t c = 0; c < table.columns.size(); ++c) {
                const Cell& cell = row[c];
                const Quantity quantity = table.columns[c].quantity;
                out << (c > 0 ? "," : "");
                if (splits_run_column(table, c)) {
                    out << quote(cell.run->label) << "," << (cell.run->simulated ? "true" : "false")
                        << "," << quote(cell.run->file);
                    continue;
                }
                if (quantity == Quantity::text) {
                    out << quote(cell.text);
                    continue;
                }
                out << number(cell.value, quantity);
                if (quantity == Quantity::ratio) {
                    out << "," << number(cell.ci_lo, quantity) << ","
                        << number(cell.ci_hi, quantity);
                }
            }
            out << "\n";
        }
    }

  private:
    static std::string number(double v, Quantity quantity) {
        if (!std::isfinite(v)) {
            return "";
        }
        switch (quantity) {
            case Quantity::time_ns:
            case Quantity::signed_time_ns: {
                const double rounded = std::round(v * 1000) / 1000;
                return fmt::format("{}", rounded == 0 ? 0.0 : rounded);
            }
            case Quantity::count:
                return fmt::format("{:.0f}", v);
            default:
                return fmt::format("{:.6g}", v);
        }
    }
};

}  // namespace

std::unique_ptr<Renderer> make_csv_renderer() {
    return std::make_unique<CsvRenderer>();
}

}  // namespace ppsbench::render
