// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Private to store: the lines after a capture file's column header (pulses, notes, free
// comments), parsed a block at a time into columns that core::PackedPulses (or the Pulse array)
// takes in bulk. Parsing a block needs nothing from the lines before it but the header, so the
// blocks of one file can be parsed on two threads and committed in order (parallel_body.hpp);
// only a line's number in messages and a note's pulse count need the blocks before it, and
// both are settled when the block is committed.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/core/packed_pulses.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::store::detail {

// What a block of body lines holds, the pulses as core::PulseColumns.
struct BodyBlock {
    // Each pulse's timestamp with its edge in bit 63 (core::clear_stamp_bit): room for the most
    // pulses the block's text can hold, so the line loop stores without a capacity check (and
    // nothing is written before it is), of which the first `pulses` count.
    std::unique_ptr<std::uint64_t[]> stamps;
    std::size_t room = 0;
    std::vector<core::SequenceRun> runs;
    std::vector<Note> notes;  // after_pulses: the pulses of this block before the note
    std::vector<std::int64_t> extra_values;
    std::size_t pulses = 0;
    std::size_t lines = 0;

    core::PulseColumns columns() const { return {{stamps.get(), pulses}, runs}; }
};

// Appends the block's pulses to a Pulse array (read_capture_file).
void append_pulses(const BodyBlock& block, std::vector<core::Pulse>& pulses);

// A line that starts with '#': a note (`# TAG {json}`), a free comment (anything else), or a
// note whose JSON does not parse into an object.
enum class CommentKind { free, note, not_an_object };
CommentKind read_comment(std::string_view text, std::string_view& tag, nlohmann::json& body);

class BodyParser {
  public:
    // `path` for messages; `extra_columns` as the header declared them (both must outlive it);
    // `fast_path` false: every line by the general rules (to check the fast path against).
    BodyParser(const std::string& path, const std::vector<std::string>& extra_columns,
               bool fast_path = true)
        : path_(path), extra_columns_(extra_columns), fast_path_(fast_path) {}

    // Parses `text`, whole lines each ending in '\n', into `out` (emptied first); the first of
    // them is line `first_line` of the file. A malformed line throws core::InputError naming
    // FILE:LINE and what was expected.
    void parse(std::string_view text, std::size_t first_line, BodyBlock& out);

  private:
    const char* fast_lines(const char* pos, const char* end);
    const char* general_line(const char* pos, const char* end);
    void add_pulse(const core::Pulse& p);
    core::Pulse pulse(std::string_view text);
    void extras(const char* pos, const char* end);
    void comment(std::string_view text);
    [[noreturn]] void fail(std::string_view why) const;

    const std::string& path_;
    const std::vector<std::string>& extra_columns_;
    bool fast_path_;
    BodyBlock* out_ = nullptr;
    std::size_t first_line_ = 0;
    std::uint64_t next_sequence_ = 0;  // the last pulse's sequence number + 1
};

}  // namespace ppsbench::store::detail
