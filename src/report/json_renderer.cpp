#include <cmath>
#include <nlohmann/json.hpp>

#include "ppsbench/report/renderer.hpp"

namespace ppsbench::report {

namespace {

nlohmann::json number(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

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
                object[column.key] = {{"value", number(row[c].value)},
                                      {"ci", {number(row[c].ci_lo), number(row[c].ci_hi)}}};
            } else {
                object[column.key] = number(row[c].value);
            }
        }
        rows.push_back(std::move(object));
    }
    return {
        {"title", table.title}, {"columns", columns}, {"rows", rows}, {"notes", table.footnotes}};
}

// The table as data: versioned, numbers raw (ns), absent figures null.
class JsonRenderer final : public Renderer {
  public:
    void render(const Table& table, std::ostream& out) const override {
        out << nlohmann::json{{"schema", "ppsbench.table/1"}, {"tables", {table_json(table)}}}.dump(
                   2)
            << "\n";
    }
    void render_all(const std::vector<Table>& tables, std::ostream& out) const override {
        nlohmann::json all = nlohmann::json::array();
        for (const auto& t : tables) {
            all.push_back(table_json(t));
        }
        out << nlohmann::json{{"schema", "ppsbench.table/1"}, {"tables", all}}.dump(2) << "\n";
    }
};

}  // namespace

std::unique_ptr<Renderer> make_json_renderer() {
    return std::make_unique<JsonRenderer>();
}

}  // namespace ppsbench::report
