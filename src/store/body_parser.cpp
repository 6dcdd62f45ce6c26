// SPDX-License-Identifier: GPL-2.0-or-later
#include "store/body_parser.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstring>

#include "ppsbench/core/error.hpp"
#include "store/pulse_line_scanner.hpp"

namespace ppsbench::store::detail {

namespace {

// "0,clear,0\n": no pulse line is shorter, so a block of n bytes holds at most n / 10 + 1.
constexpr std::size_t shortest_pulse_line = 10;

}  // namespace

void BodyParser::parse(std::string_view text, std::size_t first_line, BodyBlock& out) {
    out_ = &out;
    first_line_ = first_line;
    out.pulses = 0;
    out.lines = 0;
    out.runs.clear();
    out.notes.clear();
    out.extra_values.clear();
    const std::size_t most = text.size() / shortest_pulse_line + 1;
    if (out.room < most) {
        out.stamps = std::make_unique_for_overwrite<std::uint64_t[]>(most);
        out.room = most;
    }
    const char* pos = text.data();
    const char* const end = pos + text.size();
    if (words_are_little_endian && fast_path_ && extra_columns_.empty()) {
        pos = fast_lines(pos, end);
    }
    while (pos < end) {
        pos = general_line(pos, end);
    }
}

// Pulse lines of the usual shape (`sequence,edge,timestamp` with 1 to 19 digits each, "\n" or
// "\r\n") are parsed here in one pass of word-wide steps; every other line, and each of these
// that the steps do not take (a sign, 20 digits, a timestamp out of range), goes to
// general_line(), so the fast path only ever decides what the general one would.
const char* BodyParser::fast_lines(const char* pos, const char* const end) {
    BodyBlock& out = *out_;
    PulseLineScanner s;
    s.first_stamp = out.stamps.get();
    s.runs = &out.runs;
    if (end - pos < fast_path_reach) {
        return pos;
    }
    const char* const last_start = end - fast_path_reach;
    while (pos <= last_start) {
        s.next_stamp = s.first_stamp + out.pulses;
        s.sequence_offset = next_sequence_ - out.pulses;
        while (pos <= last_start) {
            const char* next = s.pulse_line(pos);
            if (next == nullptr) {
                break;
            }
            pos = next;
        }
        // Every line the fast path takes is a pulse.
        const auto pulses = static_cast<std::size_t>(s.next_stamp - s.first_stamp);
        out.lines += pulses - out.pulses;
        out.pulses = pulses;
        next_sequence_ = s.sequence_offset + out.pulses;
        if (pos <= last_start) {
            // Not the usual shape: the general rules decide, and the state goes with them.
            pos = general_line(pos, end);
            s.forget_expected();
        }
    }
    return pos;
}

// One line by the general rules (the reader's from the start): a note, a free comment, a blank
// line or a pulse line, parsed with from_chars; a malformed one throws.
const char* BodyParser::general_line(const char* pos, const char* end) {
    const auto* newline =
        static_cast<const char*>(std::memchr(pos, '\n', static_cast<std::size_t>(end - pos)));
    const char* const line_end = newline != nullptr ? newline : end;
    std::string_view text(pos, static_cast<std::size_t>(line_end - pos));
    ++out_->lines;
    if (!text.empty() && text.back() == '\r') {
        text.remove_suffix(1);  // a file that went through a Windows editor
    }
    if (!text.empty() && text.front() == '#') {
        comment(text);
    } else if (!text.empty()) {
        add_pulse(pulse(text));
    }
    return newline != nullptr ? newline + 1 : end;
}

void BodyParser::add_pulse(const core::Pulse& p) {
    BodyBlock& out = *out_;
    if (out.pulses == 0 || p.sequence != next_sequence_) {
        out.runs.push_back({out.pulses, p.sequence});
    }
    next_sequence_ = p.sequence + 1;
    out.stamps[out.pulses] = static_cast<std::uint64_t>(p.timestamp_ns) |
                             (p.edge == core::Edge::clear_edge ? core::clear_stamp_bit : 0);
    ++out.pulses;
}

void BodyParser::fail(std::string_view why) const {
    throw core::InputError(fmt::format("{}:{}: {}", path_, first_line_ + out_->lines - 1, why));
}

CommentKind read_comment(std::string_view text, std::string_view& tag, nlohmann::json& body) {
    text.remove_prefix(1);
    while (!text.empty() && text.front() == ' ') {
        text.remove_prefix(1);
    }
    const auto space = text.find(' ');
    tag = text.substr(0, space);
    const std::string_view json =
        space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    if (tag.empty() || json.empty() || json.front() != '{') {
        return CommentKind::free;  // a free-form comment someone added: allowed, ignored
    }
    body = nlohmann::json::parse(json, nullptr, false);
    if (body.is_discarded() || !body.is_object()) {
        return CommentKind::not_an_object;
    }
    return CommentKind::note;
}

void BodyParser::comment(std::string_view text) {
    std::string_view tag;
    nlohmann::json body;
    switch (read_comment(text, tag, body)) {
        case CommentKind::free:
            return;
        case CommentKind::not_an_object:
            fail(fmt::format("the '# {}' line does not hold a valid JSON object", tag));
        case CommentKind::note:
            break;
    }
    if (tag == "meta") {
        fail("a second '# meta' line; a capture file holds one run");
    }
    out_->notes.push_back(Note{std::string(tag), std::move(body), out_->pulses});
}

// Extra column values after the timestamp: ",V1,V2..." exactly one per declared column.
void BodyParser::extras(const char* pos, const char* end) {
    for (const auto& name : extra_columns_) {
        std::int64_t value = 0;
        if (pos == end || *pos != ',') {
            fail(fmt::format("missing the value of column '{}'", name));
        }
        auto [after, ec] = std::from_chars(pos + 1, end, value);
        if (ec != std::errc{}) {
            fail(fmt::format("column '{}' is not an integer", name));
        }
        out_->extra_values.push_back(value);
        pos = after;
    }
    if (pos != end) {
        fail("more values than the column header declares");
    }
}

core::Pulse BodyParser::pulse(std::string_view text) {
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
    if (ts_ec != std::errc{} || (after_ts != end && extra_columns_.empty())) {
        fail("the timestamp is not an integer number of nanoseconds");
    }
    extras(after_ts, end);
    return p;
}

void append_pulses(const BodyBlock& block, std::vector<core::Pulse>& pulses) {
    for (std::size_t r = 0; r < block.runs.size(); ++r) {
        const std::size_t start = block.runs[r].start;
        const std::size_t end = r + 1 < block.runs.size() ? block.runs[r + 1].start : block.pulses;
        for (std::size_t i = start; i < end; ++i) {
            const std::uint64_t stamp = block.stamps[i];
            pulses.push_back({block.runs[r].first + (i - start),
                              static_cast<std::int64_t>(stamp & ~core::clear_stamp_bit),
                              (stamp & core::clear_stamp_bit) != 0 ? core::Edge::clear_edge
                                                                   : core::Edge::assert_edge});
        }
    }
}

}  // namespace ppsbench::store::detail
