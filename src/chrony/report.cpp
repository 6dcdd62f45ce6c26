// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/report.hpp"

#include <fmt/format.h>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include "chrony/csv.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::chrony {
namespace {

using detail::FieldReader;

constexpr std::array<std::string_view, 14> tracking_fields = {
    "reference ID", "reference name",  "stratum",         "ref time",           "system time",
    "last offset",  "RMS offset",      "frequency",       "residual frequency", "skew",
    "root delay",   "root dispersion", "update interval", "leap status"};

constexpr std::array<std::string_view, 10> source_fields = {"mode",
                                                            "state",
                                                            "name",
                                                            "stratum",
                                                            "poll",
                                                            "reach",
                                                            "last rx",
                                                            "adjusted offset",
                                                            "measured offset",
                                                            "error"};

constexpr std::array<std::string_view, 8> sourcestats_fields = {
    "name", "NP", "NR", "span", "frequency", "frequency skew", "offset", "std dev"};

std::optional<SourceMode> parse_mode(std::string_view text) {
    if (text == "^") {
        return SourceMode::server;
    }
    if (text == "=") {
        return SourceMode::peer;
    }
    if (text == "#") {
        return SourceMode::refclock;
    }
    return std::nullopt;
}

std::optional<SourceState> parse_state(std::string_view text) {
    if (text.size() != 1) {
        return std::nullopt;
    }
    switch (text[0]) {
        case '*':
            return SourceState::selected;
        case '+':
            return SourceState::combined;
        case '-':
            return SourceState::not_combined;
        case 'x':
            return SourceState::falseticker;
        case '~':
            return SourceState::jittery;
        case '?':
            return SourceState::unusable;
        default:
            return std::nullopt;
    }
}

}  // namespace

std::string_view to_string(LeapStatus leap) {
    switch (leap) {
        case LeapStatus::normal:
            return "Normal";
        case LeapStatus::insert_second:
            return "Insert second";
        case LeapStatus::delete_second:
            return "Delete second";
        case LeapStatus::not_synchronised:
            return "Not synchronised";
    }
    return "unknown";
}

std::optional<LeapStatus> parse_leap_status(std::string_view text) {
    for (auto leap : {LeapStatus::normal, LeapStatus::insert_second, LeapStatus::delete_second,
                      LeapStatus::not_synchronised}) {
        if (text == to_string(leap)) {
            return leap;
        }
    }
    return std::nullopt;
}

std::string_view to_string(SourceMode mode) {
    switch (mode) {
        case SourceMode::server:
            return "server";
        case SourceMode::peer:
            return "peer";
        case SourceMode::refclock:
            return "refclock";
    }
    return "unknown";
}

std::string_view to_string(SourceState state) {
    switch (state) {
        case SourceState::selected:
            return "selected";
        case SourceState::combined:
            return "combined";
        case SourceState::not_combined:
            return "not combined";
        case SourceState::falseticker:
            return "falseticker";
        case SourceState::jittery:
            return "too variable";
        case SourceState::unusable:
            return "unusable";
    }
    return "unknown";
}

char to_symbol(SourceMode mode) {
    switch (mode) {
        case SourceMode::server:
            return '^';
        case SourceMode::peer:
            return '=';
        case SourceMode::refclock:
            return '#';
    }
    return '?';
}

char to_symbol(SourceState state) {
    switch (state) {
        case SourceState::selected:
            return '*';
        case SourceState::combined:
            return '+';
        case SourceState::not_combined:
            return '-';
        case SourceState::falseticker:
            return 'x';
        case SourceState::jittery:
            return '~';
        case SourceState::unusable:
            return '?';
    }
    return '?';
}

std::string TrackingSample::ref_id_hex() const {
    return fmt::format("{:08X}", ref_id);
}

std::string TrackingSample::ref_id_text() const {
    // chrony's UTI_RefidToString: up to four printable characters, NULs ending it.
    std::string text;
    for (int shift = 24; shift >= 0; shift -= 8) {
        const auto c = static_cast<char>((ref_id >> shift) & 0xFFU);
        if (c == '\0') {
            break;
        }
        if (c < 0x20 || c > 0x7E) {
            return {};
        }
        text.push_back(c);
    }
    return text;
}

bool TrackingSample::synchronised() const {
    return leap != LeapStatus::not_synchronised && ref_id != refid_unsynchronised &&
           ref_id != refid_local;
}

std::optional<std::int64_t> parse_seconds_ns(std::string_view text) {
    return detail::parse_fixed_ns(text);
}

TrackingSample parse_tracking(std::string_view csv) {
    const auto lines = detail::split_lines(csv);
    if (lines.size() != 1) {
        throw core::InputError(fmt::format(
            "chronyc -c tracking: expected one line, got {}; is chronyc from chrony 4.x?",
            lines.size()));
    }
    FieldReader r("chronyc -c tracking", lines[0], 1, tracking_fields);
    TrackingSample t;
    t.ref_id = r.hex32(0);
    t.ref_name = std::string(r.text(1));
    t.stratum = r.integer(2);
    t.ref_time_ns = r.seconds_ns(3);
    t.system_time_offset_ns = r.seconds_ns(4);
    t.last_offset_ns = r.seconds_ns(5);
    t.rms_offset_ns = r.seconds_ns(6);
    t.frequency_ppm = r.real(7);
    t.residual_frequency_ppm = r.real(8);
    t.skew_ppm = r.real(9);
    t.root_delay_ns = r.seconds_ns(10);
    t.root_dispersion_ns = r.seconds_ns(11);
    t.update_interval_s = r.real(12);
    const auto leap = parse_leap_status(r.text(13));
    if (!leap) {
        r.fail(13, "not a leap status (Normal, Insert second, Delete second, Not synchronised)");
    }
    t.leap = *leap;
    return t;
}

std::vector<SourceRow> parse_sources(std::string_view csv) {
    std::vector<SourceRow> rows;
    int line_number = 0;
    for (const auto line : detail::split_lines(csv)) {
        ++line_number;
        FieldReader r("chronyc -c sources", line, line_number, source_fields);
        SourceRow row;
        const auto mode = parse_mode(r.text(0));
        if (!mode) {
            r.fail(0, "not a source mode (^, = or #)");
        }
        row.mode = *mode;
        const auto state = parse_state(r.text(1));
        if (!state) {
            r.fail(1, "not a selection state (*, +, -, x, ~ or ?)");
        }
        row.state = *state;
        row.name = std::string(r.text(2));
        row.stratum = r.integer(3);
        row.poll = r.integer(4);
        row.reach = r.integer(5, 8);
        const std::int64_t last_rx = r.integer64(6);
        if (last_rx < 0 || last_rx > std::numeric_limits<std::uint32_t>::max()) {
            r.fail(6, "out of range");
        }
        // chrony reports "never" as the largest 32-bit value.
        if (last_rx != std::numeric_limits<std::uint32_t>::max()) {
            row.last_rx_s = static_cast<std::uint32_t>(last_rx);
        }
        row.adjusted_offset_ns = r.seconds_ns(7);
        row.measured_offset_ns = r.seconds_ns(8);
        row.error_ns = r.seconds_ns(9);
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<SourceStatsRow> parse_sourcestats(std::string_view csv) {
    std::vector<SourceStatsRow> rows;
    int line_number = 0;
    for (const auto line : detail::split_lines(csv)) {
        ++line_number;
        FieldReader r("chronyc -c sourcestats", line, line_number, sourcestats_fields);
        SourceStatsRow row;
        row.name = std::string(r.text(0));
        row.samples = r.integer(1);
        row.runs = r.integer(2);
        row.span_s = r.integer64(3);
        row.frequency_ppm = r.real(4);
        row.frequency_skew_ppm = r.real(5);
        row.offset_ns = r.seconds_ns(6);
        row.std_dev_ns = r.seconds_ns(7);
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace ppsbench::chrony
