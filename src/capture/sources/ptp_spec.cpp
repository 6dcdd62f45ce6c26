// SPDX-License-Identifier: GPL-2.0-or-later
#include "ptp_spec.hpp"

#include <fmt/format.h>
#include <charconv>

#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {

namespace {

unsigned parse_ptp_number(std::string_view text, std::string_view key, std::string_view rest) {
    unsigned value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size()) {
        throw core::UsageError(
            fmt::format("--source ptp:{}: {}={} is not a number; e.g. ptp:/dev/ptp0,extts=0,pin=1",
                        rest, key, text));
    }
    return value;
}

}  // namespace

PtpSpec parse_ptp_spec(std::string_view rest) {
    PtpSpec spec;
    std::size_t start = 0;
    bool first = true;
    while (start <= rest.size()) {
        const std::size_t comma = std::min(rest.find(',', start), rest.size());
        const std::string_view part = rest.substr(start, comma - start);
        start = comma + 1;
        if (first) {
            spec.device = std::string(part);
            first = false;
            continue;
        }
        const auto equals = part.find('=');
        const std::string_view key = part.substr(0, equals);
        const std::string_view value =
            equals == std::string_view::npos ? std::string_view{} : part.substr(equals + 1);
        if (key == "extts") {
            spec.channel = parse_ptp_number(value, key, rest);
        } else if (key == "pin") {
            spec.pin = parse_ptp_number(value, key, rest);
        } else {
            throw core::UsageError(fmt::format(
                "--source ptp:{}: unknown option '{}'; use ptp:/dev/ptpN[,extts=K][,pin=P]", rest,
                part));
        }
    }
    if (spec.device.empty()) {
        throw core::UsageError(
            fmt::format("--source ptp:{}: name the clock, e.g. ptp:/dev/ptp0", rest));
    }
    return spec;
}

}  // namespace ppsbench::capture
