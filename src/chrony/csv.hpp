// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Private to the chrony module: the strict field reader behind the chronyc CSV parsers.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ppsbench::chrony::detail {

// Lines without their '\n'; blank lines (chronyc ends with one newline) are dropped.
std::vector<std::string_view> split_lines(std::string_view text);

// "-12.345678901" -> -12345678901 ns. Up to nine decimals, no exponent, no spaces.
std::optional<std::int64_t> parse_fixed_ns(std::string_view text);

// Splits one CSV line and checks the field count up front, then converts fields on request.
// Every failure throws core::InputError: "<what>: line N field K (<name>) is '<value>', <why>".
class FieldReader {
  public:
    FieldReader(std::string_view what, std::string_view line, int line_number,
                std::span<const std::string_view> names);

    std::string_view text(std::size_t i) const { return fields_.at(i); }
    int integer(std::size_t i, int base = 10) const;
    std::int64_t integer64(std::size_t i) const;
    double real(std::size_t i) const;
    std::int64_t seconds_ns(std::size_t i) const;
    std::uint32_t hex32(std::size_t i) const;
    [[noreturn]] void fail(std::size_t i, std::string_view why) const;

  private:
    std::string what_;
    int line_number_;
    std::span<const std::string_view> names_;
    std::vector<std::string_view> fields_;
};

}  // namespace ppsbench::chrony::detail
