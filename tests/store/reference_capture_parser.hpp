// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The capture reader as it was before its fast paths (stop 32): every line split at '\n' and
// read with std::from_chars, one after another. The reader's tests hold every faster path to
// it: the same pulses, notes, warnings and errors, word for word.

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::store::reference {

class ReferenceCaptureParser {
  public:
    explicit ReferenceCaptureParser(CaptureFile& file) : file_(file) {}

    void parse(std::string_view text) {
        std::size_t start = 0;
        for (;;) {
            const auto newline = text.find('\n', start);
            if (newline == std::string_view::npos) {
                break;
            }
            line(text.substr(start, newline - start));
            start = newline + 1;
        }
        if (start != text.size()) {
            file_.warnings.push_back(fmt::format(
                "{}:{}: the last line is incomplete (the run was cut off while writing it) and "
                "was ignored",
                file_.path, line_number_ + 1));
        }
        if (!header_seen_) {
            throw core::InputError(fmt::format(
                "{}: the file ends inside its header, so it holds no pulses; capture again",
                file_.path));
        }
    }

  private:
    void line(std::string_view text) {
        ++line_number_;
        if (!text.empty() && text.back() == '\r') {
            text.remove_suffix(1);
        }
        if (line_number_ == 1) {
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
        file_.pulses.push_back(pulse(text));
    }

    [[noreturn]] void fail(std::string_view why) const {
        throw core::InputError(fmt::format("{}:{}: {}", file_.path, line_number_, why));
    }

    void comment(std::string_view text) {
        text.remove_prefix(1);
        while (!text.empty() && text.front() == ' ') {
            text.remove_prefix(1);
        }
        const auto space = text.find(' ');
        const std::string_view tag = text.substr(0, space);
        const std::string_view body =
            space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
        if (tag.empty() || body.empty() || body.front() != '{') {
            return;
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
        file_.notes.push_back(Note{std::string(tag), std::move(parsed), file_.pulses.size()});
    }

    void columns(std::string_view text) {
        if (!text.starts_with(column_header) ||
            (text.size() > column_header.size() && text[column_header.size()] != ',')) {
            fail(fmt::format("expected the column header '{}'", column_header));
        }
        text.remove_prefix(column_header.size());
        while (!text.empty()) {
            text.remove_prefix(1);
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

    void extras(const char* pos, const char* end) const {
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

    core::Pulse pulse(std::string_view text) const {
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
            fail(fmt::format("edge '{}' is neither 'assert' nor 'clear'",
                             std::string_view(pos, comma)));
        }
        p.edge = *edge;
        pos += comma + 1;
        auto [after_ts, ts_ec] = std::from_chars(pos, end, p.timestamp_ns);
        if (ts_ec == std::errc::result_out_of_range ||
            (ts_ec == std::errc{} &&
             (p.timestamp_ns < 0 || p.timestamp_ns > core::max_timestamp_ns))) {
            fail(
                fmt::format("the timestamp is outside 0 … {} ns (1970 … 2116), which no PPS "
                            "clock gives; the line is damaged",
                            core::max_timestamp_ns));
        }
        if (ts_ec != std::errc{} || (after_ts != end && file_.extra_columns.empty())) {
            fail("the timestamp is not an integer number of nanoseconds");
        }
        extras(after_ts, end);
        return p;
    }

    CaptureFile& file_;
    std::size_t line_number_ = 0;
    bool meta_seen_ = false;
    bool header_seen_ = false;
};

}  // namespace ppsbench::store::reference
