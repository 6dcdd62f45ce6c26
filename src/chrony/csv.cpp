// SPDX-License-Identifier: GPL-2.0-or-later
#include "chrony/csv.hpp"

#include <fmt/format.h>
#include <charconv>
#include <cmath>

#include "ppsbench/core/error.hpp"

namespace ppsbench::chrony::detail {

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto end = text.find('\n');
        auto line = text.substr(0, end);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (!line.empty()) {
            lines.push_back(line);
        }
        if (end == std::string_view::npos) {
            break;
        }
        text.remove_prefix(end + 1);
    }
    return lines;
}

std::optional<std::int64_t> parse_fixed_ns(std::string_view text) {
    bool negative = false;
    if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
        negative = text[0] == '-';
        text.remove_prefix(1);
    }
    const auto dot = text.find('.');
    const auto whole = text.substr(0, dot);
    const auto fraction = dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
    if (whole.empty() || fraction.size() > 9 ||
        (dot != std::string_view::npos && fraction.empty())) {
        return std::nullopt;
    }
    std::int64_t ns = 0;
    for (const char c : whole) {
        if (c < '0' || c > '9' || __builtin_mul_overflow(ns, 10, &ns) ||
            __builtin_add_overflow(ns, c - '0', &ns)) {
            return std::nullopt;
        }
    }
    if (__builtin_mul_overflow(ns, 1'000'000'000, &ns)) {
        return std::nullopt;
    }
    std::int64_t frac = 0;
    for (std::size_t i = 0; i < 9; ++i) {
        const char c = i < fraction.size() ? fraction[i] : '0';
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        frac = frac * 10 + (c - '0');
    }
    if (__builtin_add_overflow(ns, frac, &ns)) {
        return std::nullopt;
    }
    return negative ? -ns : ns;
}

FieldReader::FieldReader(std::string_view what, std::string_view line, int line_number,
                         std::span<const std::string_view> names)
    : what_(what), line_number_(line_number), names_(names) {
    std::size_t start = 0;
    while (true) {
        const auto comma = line.find(',', start);
        fields_.push_back(line.substr(start, comma - start));
        if (comma == std::string_view::npos) {
            break;
        }
        start = comma + 1;
    }
    if (fields_.size() != names_.size()) {
        throw core::InputError(
            fmt::format("{}: line {} has {} fields, expected {}; is chronyc from chrony 4.x?",
                        what_, line_number_, fields_.size(), names_.size()));
    }
}

void FieldReader::fail(std::size_t i, std::string_view why) const {
    throw core::InputError(fmt::format("{}: line {} field {} ({}) is '{}', {}", what_, line_number_,
                                       i + 1, names_[i], fields_[i], why));
}

int FieldReader::integer(std::size_t i, int base) const {
    const auto f = fields_.at(i);
    int value = 0;
    const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), value, base);
    if (ec != std::errc{} || end != f.data() + f.size() || f.empty()) {
        fail(i, base == 8 ? "not an octal integer" : "not an integer");
    }
    return value;
}

std::int64_t FieldReader::integer64(std::size_t i) const {
    const auto f = fields_.at(i);
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), value);
    if (ec != std::errc{} || end != f.data() + f.size() || f.empty()) {
        fail(i, "not an integer");
    }
    return value;
}

double FieldReader::real(std::size_t i) const {
    const auto f = fields_.at(i);
    double value = 0.0;
    const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), value);
    if (ec != std::errc{} || end != f.data() + f.size() || f.empty() || !std::isfinite(value)) {
        fail(i, "not a number");
    }
    return value;
}

std::int64_t FieldReader::seconds_ns(std::size_t i) const {
    const auto ns = parse_fixed_ns(fields_.at(i));
    if (!ns) {
        fail(i, "not a number of seconds with at most nine decimals");
    }
    return *ns;
}

std::uint32_t FieldReader::hex32(std::size_t i) const {
    const auto f = fields_.at(i);
    std::uint32_t value = 0;
    const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), value, 16);
    if (ec != std::errc{} || end != f.data() + f.size() || f.empty() || f.size() > 8) {
        fail(i, "not a hexadecimal reference ID");
    }
    return value;
}

}  // namespace ppsbench::chrony::detail
