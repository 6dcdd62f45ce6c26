// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/render/prometheus.hpp"

#include <fmt/format.h>
#include <cmath>

namespace ppsbench::render {

namespace {

std::string escape_label(const std::string& value) {
    std::string escaped;
    for (char c : value) {
        if (c == '\\') {
            escaped += "\\\\";
        } else if (c == '"') {
            escaped += "\\\"";
        } else if (c == '\n') {
            escaped += "\\n";
        } else {
            escaped += c;
        }
    }
    return escaped;
}

std::string escape_help(const std::string& text) {
    std::string escaped;
    for (char c : text) {
        if (c == '\\') {
            escaped += "\\\\";
        } else if (c == '\n') {
            escaped += "\\n";
        } else {
            escaped += c;
        }
    }
    return escaped;
}

}  // namespace

void write_prometheus(const std::vector<PrometheusFamily>& families, std::ostream& out) {
    for (const auto& family : families) {
        out << "# HELP " << family.name << " " << escape_help(family.help) << "\n";
        out << "# TYPE " << family.name << " " << family.type << "\n";
        for (const auto& sample : family.samples) {
            if (!std::isfinite(sample.value)) {
                continue;
            }
            out << family.name;
            if (!sample.labels.empty()) {
                out << "{";
                bool first = true;
                for (const auto& [key, value] : sample.labels) {
                    out << (first ? "" : ",") << key << "=\"" << escape_label(value) << "\"";
                    first = false;
                }
                out << "}";
            }
            out << " " << fmt::format("{}", sample.value) << "\n";
        }
    }
}

}  // namespace ppsbench::render
