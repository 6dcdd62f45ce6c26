// SPDX-License-Identifier: GPL-2.0-or-later
#include "store/capture_parser.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstring>

#include "ppsbench/core/error.hpp"
#include "store/decimal_digits.hpp"

namespace ppsbench::store::detail {

void CaptureParser::line(std::string_view text) {
    ++line_number_;
    if (!text.empty() && text.back() == '\r') {
        text.remove_suffix(1);  // a file that went through a Windows editor
    }
    if (line_number_ == 1) {
        // A UTF-8 byte order mark, as some Windows editors and spreadsheets save it.
        if (text.starts_with("\xEF\xBB\xBF")) {
            text.remove_prefix(3);
        }
        if (text != magic_line) {
            fail(
                fmt::format("not a ppsbench capture file (the first line should be '{}'); "
                            "logs from other tools go through 'ppsbench import'",
                            magic_line));
        }
        return;
    }
    if (!text.empty() && text.front() == '#') {
        comment(text);
        return;
    }
    if (!header_seen_) {
        columns(text);
        if (!meta_seen_) {
            fail("the '# meta {...}' line is missing before the column header");
        }
        header_seen_ = true;
        return;
    }
    if (text.empty()) {
        return;
    }
    store(pulse(text));
}

// Splits `text` into lines and parses them; returns the unterminated tail. A well-formed
// pulse line (nearly every line of a capture) is parsed where it lies, in one left-to-right
// scan (files with extra columns take the general path); anything else, including every
// malformed line, goes through line(), which finds the fault and names it.
std::string_view CaptureParser::feed(std::string_view text) {
    const char* pos = text.data();
    const char* const end = pos + text.size();
    while (pos < end) {
        if (header_seen_ && file_.extra_columns.empty() && *pos >= '0' && *pos <= '9') {
            if (const char* next = pulse_line(pos, end)) {
                pos = next;
                continue;
            }
        }
        const auto* newline =
            static_cast<const char*>(std::memchr(pos, '\n', static_cast<std::size_t>(end - pos)));
        if (newline == nullptr) {
            break;
        }
        line(std::string_view(pos, static_cast<std::size_t>(newline - pos)));
        pos = newline + 1;
    }
    return {pos, static_cast<std::size_t>(end - pos)};
}

void CaptureParser::finish(std::string_view torn_tail) {
    if (!torn_tail.empty()) {
        file_.warnings.push_back(fmt::format(
            "{}:{}: the last line is incomplete (the run was cut off while writing it) and "
            "was ignored",
            file_.path, line_number_ + 1));
    }
    if (!header_seen_) {
        throw core::InputError(
            fmt::format("{}: the file ends inside its header, so it holds no pulses; capture again",
                        file_.path));
    }
}

void CaptureParser::fail(std::string_view why) const {
    throw core::InputError(fmt::format("{}:{}: {}", file_.path, line_number_, why));
}

void CaptureParser::comment(std::string_view text) {
    text.remove_prefix(1);
    while (!text.empty() && text.front() == ' ') {
        text.remove_prefix(1);
    }
    const auto space = text.find(' ');
    const std::string_view tag = text.substr(0, space);
    const std::string_view body =
        space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    if (tag.empty() || body.empty() || body.front() != '{') {
        return;  // a free-form comment someone added: allowed, ignored
    }
    auto parsed = nlohmann::json::parse(body, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
        fail(fmt::format("the '# {}' line does not hold a valid JSON object", tag));
    }
    if (tag == "meta") {
        if (meta_seen_) {
            fail("a second '# meta' line; a capture file holds one run");
        }
        meta_seen_ = true;
        file_.meta = std::move(parsed);
        file_.run_meta = run_meta_from_json(file_.meta);
        return;
    }
    file_.notes.push_back(Note{std::string(tag), std::move(parsed), pulses_so_far()});
}

// The fixed columns, then optional extra integer columns this reader keeps by name.
void CaptureParser::columns(std::string_view text) {
    if (!text.starts_with(column_header) ||
        (text.size() > column_header.size() && text[column_header.size()] != ',')) {
        fail(fmt::format("expected the column header '{}'", column_header));
    }
    text.remove_prefix(column_header.size());
    while (!text.empty()) {
        text.remove_prefix(1);  // the comma
        const auto comma = text.find(',');
        const std::string_view name = text.substr(0, comma);
        if (name.empty() || file_.extra_columns.size() == max_extra_columns) {
            fail(fmt::format("expected '{}' and at most {} named extra columns", column_header,
                             max_extra_columns));
        }
        file_.extra_columns.emplace_back(name);
        text.remove_prefix(comma == std::string_view::npos ? text.size() : comma);
    }
}

// Extra column values after the timestamp: ",V1,V2..." exactly one per declared column.
void CaptureParser::extras(const char* pos, const char* end) const {
    for (const auto& name : file_.extra_columns) {
        std::int64_t value = 0;
        if (pos == end || *pos != ',') {
            fail(fmt::format("missing the value of column '{}'", name));
        }
        auto [after, ec] = std::from_chars(pos + 1, end, value);
        if (ec != std::errc{}) {
            fail(fmt::format("column '{}' is not an integer", name));
        }
        file_.extra_values.push_back(value);
        pos = after;
    }
    if (pos != end) {
        fail("more values than the column header declares");
    }
}

// `sequence,edge,timestamp\n` (or `\r\n`) at pos: the pulse is stored and the next line's
// start returned. nullptr, with nothing stored, for anything else (line() then decides).
const char* CaptureParser::pulse_line(const char* pos, const char* end) {
    core::Pulse p;
    const char* after_seq = parse_digits(pos, end, p.sequence);
    if (after_seq == nullptr || after_seq == end || *after_seq != ',') {
        return nullptr;
    }
    const char* edge = after_seq + 1;
    constexpr std::string_view assert_text = "assert,";
    constexpr std::string_view clear_text = "clear,";
    const std::string_view rest(edge, static_cast<std::size_t>(end - edge));
    if (rest.starts_with(assert_text)) {
        p.edge = core::Edge::assert_edge;
        edge += assert_text.size();
    } else if (rest.starts_with(clear_text)) {
        p.edge = core::Edge::clear_edge;
        edge += clear_text.size();
    } else {
        return nullptr;
    }
    std::uint64_t timestamp = 0;
    const char* after_ts = parse_digits(edge, end, timestamp);
    if (after_ts == nullptr || after_ts == end ||
        timestamp > static_cast<std::uint64_t>(core::max_timestamp_ns)) {
        return nullptr;  // negative, or out of range: line() says which
    }
    p.timestamp_ns = static_cast<std::int64_t>(timestamp);
    if (*after_ts == '\r' && after_ts + 1 != end) {
        ++after_ts;
    }
    if (*after_ts != '\n') {
        return nullptr;
    }
    ++line_number_;
    store(p);
    return after_ts + 1;
}

core::Pulse CaptureParser::pulse(std::string_view text) const {
    core::Pulse p;
    const char* pos = text.data();
    const char* end = text.data() + text.size();
    auto [after_seq, seq_ec] = std::from_chars(pos, end, p.sequence);
    if (seq_ec != std::errc{} || after_seq == end || *after_seq != ',') {
        fail("expected 'sequence,edge,timestamp_ns' with an unsigned integer sequence");
    }
    pos = after_seq + 1;
    const auto comma = std::string_view(pos, static_cast<std::size_t>(end - pos)).find(',');
    if (comma == std::string_view::npos) {
        fail("expected 'sequence,edge,timestamp_ns': missing the timestamp");
    }
    const auto edge = core::parse_edge(std::string_view(pos, comma));
    if (!edge) {
        fail(
            fmt::format("edge '{}' is neither 'assert' nor 'clear'", std::string_view(pos, comma)));
    }
    p.edge = *edge;
    pos += comma + 1;
    auto [after_ts, ts_ec] = std::from_chars(pos, end, p.timestamp_ns);
    if (ts_ec == std::errc::result_out_of_range ||
        (ts_ec == std::errc{} && (p.timestamp_ns < 0 || p.timestamp_ns > core::max_timestamp_ns))) {
        fail(
            fmt::format("the timestamp is outside 0 … {} ns (1970 … 2116), which no PPS clock "
                        "gives; the line is damaged",
                        core::max_timestamp_ns));
    }
    if (ts_ec != std::errc{} || (after_ts != end && file_.extra_columns.empty())) {
        fail("the timestamp is not an integer number of nanoseconds");
    }
    extras(after_ts, end);
    return p;
}

}  // namespace ppsbench::store::detail
