// SPDX-License-Identifier: GPL-2.0-or-later
#include "store/body_parser.hpp"

#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <cstring>

#include "ppsbench/core/error.hpp"
#include "store/decimal_digits.hpp"

namespace ppsbench::store::detail {

namespace {

// "0,clear,0\n": no pulse line is shorter, so a block of n bytes holds at most n / 10 + 1.
constexpr std::size_t shortest_pulse_line = 10;
// The fast path reads up to 54 bytes from a line's start (19 digits, ",assert,", 19 digits
// and a word); closer to the block's end, lines take the general path.
constexpr std::ptrdiff_t fast_path_reach = 64;

constexpr std::uint64_t word_of(std::string_view text) {
    std::uint64_t word = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        word |= static_cast<std::uint64_t>(static_cast<unsigned char>(text[i])) << (8 * i);
    }
    return word;
}
constexpr std::uint64_t assert_word = word_of(",assert,");
constexpr std::uint64_t clear_word = word_of(",clear,");
constexpr std::uint64_t seven_bytes = 0x00FFFFFFFFFFFFFF;
constexpr std::uint64_t crlf_word = word_of("\r\n");

// The line's end after its last digit: "\n" or "\r\n"; nullptr for anything else.
inline const char* after_line_end(const char* p) {
    if (*p == '\n') {
        return p + 1;
    }
    return p[0] == '\r' && p[1] == '\n' ? p + 2 : nullptr;
}

}  // namespace

// The line loop's state, in registers while lines take the fast path.
struct BodyParser::FastState {
    // Where the block's pulses start, and where the next one goes.
    std::uint64_t* first_stamp = nullptr;
    std::uint64_t* next_stamp = nullptr;
    std::vector<core::SequenceRun>* runs = nullptr;
    // The next pulse's expected sequence number, less its index in the block: it stays put
    // while the numbers count up by one.
    std::uint64_t sequence_offset = 0;
    // The next line's sequence number as it would be written when it is the last one + 1 with
    // as many digits: its bytes under `sequence_mask` (0, with text 1, while not known: then no
    // line matches); what adding one to its last digit adds, and the text ending in 9 after
    // which the next needs a carry.
    std::uint64_t sequence_text = 1;
    std::uint64_t sequence_mask = 0;
    std::uint64_t last_digit_one = 0;
    std::uint64_t last_before_carry = 0;
    std::ptrdiff_t sequence_digits = 0;
    // The first 3 of the last 19-digit timestamp's digits and their value times 10^16: they
    // change once in 31 years.
    std::uint64_t lead_text = 0x303030;
    std::uint64_t lead_value = 0;

    // A pulse line of the usual shape at pos, stored: the next line's start; nullptr, with
    // nothing stored, for anything else.
    [[gnu::always_inline]] const char* pulse_line(const char* pos) {
        const std::uint64_t head = load_word(pos);
        if ((head & sequence_mask) == sequence_text) {
            // The last number + 1, as expected.
            const char* next = rest_of_line(pos + sequence_digits);
            if (next != nullptr) {
                advance_expected();
            }
            return next;
        }
        const ScannedNumber sequence = scan_digits(pos);
        if (sequence.end == nullptr) {
            return nullptr;
        }
        const auto index = static_cast<std::size_t>(next_stamp - first_stamp);
        const char* next = rest_of_line(sequence.end);
        if (next != nullptr) {
            if (sequence.value != sequence_offset + index || index == 0) {
                runs->push_back({index, sequence.value});
            }
            sequence_offset = sequence.value - index;
            expect_after(head, sequence.end - pos);
        }
        return next;
    }

    // The edge, the timestamp and the line's end after the sequence number: the pulse stored,
    // and the next line's start; nullptr, with nothing stored, for anything else.
    [[gnu::always_inline]] const char* rest_of_line(const char* comma) {
        const std::uint64_t edge = load_word(comma);
        const char* digits = comma + 8;
        std::uint64_t edge_bit = 0;
        if (__builtin_expect(edge != assert_word, 0)) {
            if ((edge & seven_bytes) != clear_word) {
                return nullptr;
            }
            digits = comma + 7;
            edge_bit = core::clear_stamp_bit;
        }
        std::uint64_t timestamp = 0;
        const char* next = nineteen_digits(digits, timestamp);
        if (__builtin_expect(next == nullptr, 0)) {
            const ScannedNumber scanned = scan_digits(digits);
            if (scanned.end == nullptr || (next = after_line_end(scanned.end)) == nullptr ||
                scanned.value > static_cast<std::uint64_t>(core::max_timestamp_ns)) {
                return nullptr;  // the general path says why
            }
            timestamp = scanned.value;
        }
        *next_stamp++ = timestamp | edge_bit;
        return next;
    }

    // After a number scanned from the `digits` bytes of `head`: what the next line's would be.
    void expect_after(std::uint64_t head, std::ptrdiff_t digits) {
        if (digits > 8) {
            forget_expected();
            return;
        }
        const int last_shift = static_cast<int>(8 * (digits - 1));
        sequence_mask = digits == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * digits)) - 1;
        last_digit_one = std::uint64_t{1} << last_shift;
        sequence_text = head & sequence_mask;
        sequence_digits = digits;
        last_before_carry = (sequence_text & ~(std::uint64_t{0xFF} << last_shift)) |
                            (std::uint64_t{'9'} << last_shift);
        advance_expected();
    }
    // The text after sequence_text, one more.
    void advance_expected() {
        if (__builtin_expect(sequence_text != last_before_carry, 1)) {
            sequence_text += last_digit_one;
        } else {
            carry();
        }
    }
    // One more than a number ending in 9: the trailing 9s become 0s and the digit before them
    // goes up one (all 9s: one digit more, which the next line's scan finds).
    void carry() {
        const std::uint64_t nines = (sequence_text ^ 0x3939393939393939) & sequence_mask;
        const std::uint64_t top_aligned = nines << (64 - 8 * sequence_digits);
        if (top_aligned == 0) {
            forget_expected();
            return;
        }
        const int carry_shift =
            static_cast<int>(8 * (sequence_digits - 1)) - std::countl_zero(top_aligned) / 8 * 8;
        const std::uint64_t trailing =
            sequence_mask & ~((std::uint64_t{1} << (carry_shift + 8)) - 1);
        sequence_text =
            sequence_text - (0x0909090909090909 & trailing) + (std::uint64_t{1} << carry_shift);
        last_before_carry = sequence_text + 9 * last_digit_one;
    }
    void forget_expected() {
        sequence_text = 1;
        sequence_mask = 0;
    }

    // 19 digits and the line's end at p, the usual timestamp: its value and the next line's
    // start; nullptr for anything else (also for leading digits 461 and up, where a timestamp
    // may pass max_timestamp_ns: the general path checks those).
    [[gnu::always_inline]] const char* nineteen_digits(const char* p, std::uint64_t& out) {
        const std::uint64_t lead = load_word(p) & 0xFFFFFF;
        std::uint64_t rest = 0;
        if ((lead != lead_text && !new_lead(lead)) || !sixteen_digits(p + 3, rest)) {
            return nullptr;
        }
        const char* next = p + 20;
        if (__builtin_expect(p[19] != '\n', 0)) {
            if (p[19] != '\r' || p[20] != '\n') {
                return nullptr;
            }
            next = p + 21;
        }
        out = lead_value + rest;
        return next;
    }
    bool new_lead(std::uint64_t lead) {
        const std::uint64_t digits = lead ^ 0x303030;
        if (non_digit_bytes(digits) != 0) {
            return false;
        }
        // Below 461, no 16 digits after them make more than max_timestamp_ns.
        constexpr std::uint64_t sixteen_nines = 9'999'999'999'999'999;
        const std::uint64_t value = leading_digits_value(digits, 3);
        if (value > (static_cast<std::uint64_t>(core::max_timestamp_ns) - sixteen_nines) /
                        (sixteen_nines + 1)) {
            return false;
        }
        lead_text = lead;
        lead_value = value * 10'000'000'000'000'000;
        return true;
    }
};

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
    FastState s;
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
