// SPDX-License-Identifier: GPL-2.0-or-later
#include "store/capture_parser.hpp"

#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>

#include "ppsbench/core/error.hpp"

namespace ppsbench::store::detail {

std::string_view CaptureParser::feed_header(std::string_view text) {
    while (!header_seen_) {
        const auto newline = text.find('\n');
        if (newline == std::string_view::npos) {
            break;
        }
        line(text.substr(0, newline));
        text.remove_prefix(newline + 1);
    }
    return text;
}

std::string_view CaptureParser::feed(std::string_view text) {
    text = feed_header(text);
    const auto last = text.rfind('\n');
    if (!header_seen_ || last == std::string_view::npos) {
        return text;
    }
    std::string_view lines = text.substr(0, last + 1);
    while (!lines.empty()) {
        const std::size_t block = std::max<std::size_t>(options_.block_bytes, 1);
        const std::size_t cut =
            lines.size() <= block ? lines.size() : lines.find('\n', block - 1) + 1;
        body_.parse(lines.substr(0, cut), line_number_ + 1, block_);
        commit(block_);
        lines.remove_prefix(cut);
    }
    return text.substr(last + 1);
}

void CaptureParser::commit(BodyBlock& block) {
    const std::size_t before = pulses_so_far();
    if (packed_ != nullptr) {
        packed_->append(block.columns());
    } else {
        append_pulses(block, file_.pulses);
    }
    for (Note& note : block.notes) {
        note.after_pulses += before;
        file_.notes.push_back(std::move(note));
    }
    file_.extra_values.insert(file_.extra_values.end(), block.extra_values.begin(),
                              block.extra_values.end());
    line_number_ += block.lines;
}

void CaptureParser::reserve(std::size_t n) {
    if (packed_ != nullptr) {
        packed_->reserve(n);  // in huge pages when big (core::PackedPulses)
        return;
    }
    file_.pulses.reserve(n);
    // The Pulse array in 2 MiB pages where the kernel offers them, as PackedPulses keeps its
    // timestamps: its whole 2 MiB stretches (advice only; a fresh 4 KiB page costs a fault).
    constexpr std::uintptr_t huge_page = std::uintptr_t{2} << 20;
    const auto begin = reinterpret_cast<std::uintptr_t>(file_.pulses.data());
    const std::uintptr_t end = begin + file_.pulses.capacity() * sizeof(core::Pulse);
    const std::uintptr_t first = (begin + huge_page - 1) / huge_page * huge_page;
    const std::uintptr_t last = end / huge_page * huge_page;
    if (first < last) {
        (void)::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
    }
}

// A line of the header: the first line, the metadata, notes and comments before the column
// header, and the column header.
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
    columns(text);
    if (!meta_seen_) {
        fail("the '# meta {...}' line is missing before the column header");
    }
    header_seen_ = true;
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
        if (meta_seen_) {
            fail("a second '# meta' line; a capture file holds one run");
        }
        meta_seen_ = true;
        file_.meta = std::move(body);
        file_.run_meta = run_meta_from_json(file_.meta);
        return;
    }
    file_.notes.push_back(Note{std::string(tag), std::move(body), pulses_so_far()});
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

}  // namespace ppsbench::store::detail
