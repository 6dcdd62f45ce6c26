#include <fmt/format.h>
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

// Machine-friendly: column keys as the header, raw numbers (ns for times) with full precision,
// empty fields for absent figures. Footnotes are left out: a CSV is data.
class CsvRenderer final : public Renderer {
  public:
    void render(const Table& table, std::ostream& out) const override {
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            out << (c > 0 ? "," : "") << quote(table.columns[c].key);
            if (table.columns[c].quantity == Quantity::ratio) {
                out << "," << quote(table.columns[c].key + "_ci_lo") << ","
                    << quote(table.columns[c].key + "_ci_hi");
            }
        }
        out << "\n";
        for (const auto& row : table.rows) {
            for (std::size_t c = 0; c < table.columns.size(); ++c) {
                const Cell& cell = row[c];
                out << (c > 0 ? "," : "");
                if (table.columns[c].quantity == Quantity::text) {
                    out << quote(cell.text);
                    continue;
                }
                out << number(cell.value);
                if (table.columns[c].quantity == Quantity::ratio) {
                    out << "," << number(cell.ci_lo) << "," << number(cell.ci_hi);
                }
            }
            out << "\n";
        }
    }

  private:
    static std::string number(double v) { return std::isfinite(v) ? fmt::format("{}", v) : ""; }
};

}  // namespace

std::unique_ptr<Renderer> make_csv_renderer() {
    return std::make_unique<CsvRenderer>();
}

}  // namespace ppsbench::render
