// SPDX-License-Identifier: GPL-2.0-or-later
#include <cmath>
#include <nlohmann/json.hpp>

#include "ppsbench/analysis/json_number.hpp"
#include "ppsbench/analysis/report_document.hpp"
#include "ppsbench/render/comparison_view.hpp"
#include "ppsbench/render/renderer.hpp"

namespace ppsbench::render {

namespace {

using analysis::json_number;

const char* unit_of(Quantity q) {
    switch (q) {
        case Quantity::time_ns:
        case Quantity::signed_time_ns:
            return "ns";
        case Quantity::count:
            return "count";
        case Quantity::ratio:
            return "ratio";
        case Quantity::plain:
            return "1";
        case Quantity::percent:
            return "percent";
        case Quantity::text:
            return "text";
    }
    return "text";
}

nlohmann::json table_json(const Table& table) {
    nlohmann::json columns = nlohmann::json::array();
    for (const auto& c : table.columns) {
        columns.push_back({{"key", c.key}, {"title", c.title}, {"unit", unit_of(c.quantity)}});
    }
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : table.rows) {
        nlohmann::json object = nlohmann::json::object();
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            const auto& column = table.columns[c];
            if (column.quantity == Quantity::text) {
                object[column.key] = row[c].text;
            } else if (column.quantity == Quantity::ratio) {
                object[column.key] = {
                    {"value", json_number(row[c].value)},
                    {"ci", {json_number(row[c].ci_lo), json_number(row[c].ci_hi)}}};
            } else {
                object[column.key] = json_number(row[c].value);
            }
        }
        rows.push_back(std::move(object));
    }
    return {
        {"title", table.title}, {"columns", columns}, {"rows", rows}, {"notes", table.footnotes}};
}

// --histogram: each run's histogram as data under it (runs[].histogram, null for a run without
// pulses), never text after the document. Every value is in a bin, so the under- and overflow
// stay 0; they are kept for readers of the schema.
void add_histograms(nlohmann::json& document, const std::vector<analysis::RunAnalysis>& runs,
                    const analysis::SharedBins& bins) {
    for (std::size_t i = 0; i < runs.size() && i < document["runs"].size(); ++i) {
        const auto& counts = i < bins.counts.size() ? bins.counts[i] : std::nullopt;
        document["runs"][i]["histogram"] = counts
                                               ? nlohmann::json{{"lower_edge_ns", bins.lower_ns},
                                                                {"bin_width_ns", bins.bin_width_ns},
                                                                {"counts", *counts},
                                                                {"underflow", 0},
                                                                {"overflow", 0}}
                                               : nlohmann::json(nullptr);
    }
}

// Data, not layout: a report is the report document (ppsbench.report/2), a comparison the
// comparison document (ppsbench.compare/2); other tables are "ppsbench.table/1": versioned,
// numbers raw (ns), absent figures null.
class JsonRenderer final : public Renderer {
  public:
    void render_report(const analysis::Report& report, const std::vector<Table>& /*tables*/,
                       const analysis::SharedBins* histograms, std::ostream& out) const override {
        auto document = analysis::report_document(report);
        if (histograms != nullptr) {
            add_histograms(document, report.runs, *histograms);
        }
        out << document.dump(2) << "\n";
    }
    void render_comparison(const analysis::Comparison& comparison, const Table& /*table*/,
                           std::ostream& out) const override {
        out << comparison_document(comparison).dump(2) << "\n";
    }
    void render(const Table& table, std::ostream& out) const override {
        out << nlohmann::json{{analysis::schema_key, "ppsbench.table/1"},
                              {"tables", {table_json(table)}}}
                   .dump(2)
            << "\n";
    }
    void render_all(const std::vector<Table>& tables, std::ostream& out) const override {
        nlohmann::json all = nlohmann::json::array();
        for (const auto& t : tables) {
            all.push_back(table_json(t));
        }
        out << nlohmann::json{{analysis::schema_key, "ppsbench.table/1"}, {"tables", all}}.dump(2)
            << "\n";
    }
};

}  // namespace

std::unique_ptr<Renderer> make_json_renderer() {
    return std::make_unique<JsonRenderer>();
}

}  // namespace ppsbench::render
