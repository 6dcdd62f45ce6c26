// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Private to store: BodyParser's fast path, the pulse line of the usual shape
// (`sequence,edge,timestamp` with 1 to 19 digits each, "\n" or "\r\n") read in word-wide steps
// where nearly every byte is compared rather than parsed: the sequence number with the last one
// + 1 as it would be written, the edge with ",assert," as a word, the timestamp's first 3
// digits with the last ones; the other 16 in one SSE2 step (decimal_digits.hpp). A line it does
// not take, it leaves to the general rules untouched, so it only ever decides what they would.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "ppsbench/core/packed_pulses.hpp"
#include "ppsbench/core/pulse.hpp"
#include "store/decimal_digits.hpp"

namespace ppsbench::store::detail {

// The fast path reads up to 54 bytes from a line's start (19 digits, ",assert,", 19 digits
// and a word); closer to the block's end, lines take the general path.
inline constexpr std::ptrdiff_t fast_path_reach = 64;

constexpr std::uint64_t word_of(std::string_view text) {
    std::uint64_t word = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        word |= static_cast<std::uint64_t>(static_cast<unsigned char>(text[i])) << (8 * i);
    }
    return word;
}
inline constexpr std::uint64_t assert_word = word_of(",assert,");
inline constexpr std::uint64_t clear_word = word_of(",clear,");
inline constexpr std::uint64_t seven_bytes = 0x00FFFFFFFFFFFFFF;

// The line's end after its last digit: "\n" or "\r\n"; nullptr for anything else.
inline const char* after_line_end(const char* p) {
    if (*p == '\n') {
        return p + 1;
    }
    return p[0] == '\r' && p[1] == '\n' ? p + 2 : nullptr;
}

// The fast path from line to line: what it expects of the next line, kept in registers while the
// lines keep the usual shape, and where it puts the pulses.
struct PulseLineScanner {
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

}  // namespace ppsbench::store::detail
