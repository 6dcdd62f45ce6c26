// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Private to store: the capture-file text parser behind read_capture_file and
// parse_capture_text (docs/capture-file.md). It keeps only what it needs between calls, so the
// reader can feed it a file of any size block by block.

#include <cstddef>
#include <string_view>

#include "ppsbench/core/packed_pulses.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::store::detail {

class CaptureParser {
  public:
    explicit CaptureParser(CaptureFile& file) : file_(file) {}
    // The pulses go to `packed` instead of file.pulses (read_packed_capture).
    CaptureParser(CaptureFile& file, core::PackedPulses& packed) : file_(file), packed_(&packed) {}

    // Splits `text` into lines and parses them into the file; returns the unterminated tail,
    // which the caller hands back with the next block. Malformed lines throw core::InputError
    // naming FILE:LINE and what was expected.
    std::string_view feed(std::string_view text);

    // At the end of the input: `torn_tail` (a last line without its newline, what a crash
    // leaves) becomes a warning; a file that ended inside its header throws.
    void finish(std::string_view torn_tail);

  private:
    void line(std::string_view text);
    [[noreturn]] void fail(std::string_view why) const;
    void comment(std::string_view text);
    void columns(std::string_view text);
    void extras(const char* pos, const char* end) const;
    const char* pulse_line(const char* pos, const char* end);
    core::Pulse pulse(std::string_view text) const;
    [[gnu::always_inline]] void store(const core::Pulse& p) {
        if (packed_ != nullptr) {
            packed_->push_back(p);
        } else {
            file_.pulses.push_back(p);
        }
    }
    std::size_t pulses_so_far() const {
        return packed_ != nullptr ? packed_->size() : file_.pulses.size();
    }

    CaptureFile& file_;
    core::PackedPulses* packed_ = nullptr;
    std::size_t line_number_ = 0;
    bool meta_seen_ = false;
    bool header_seen_ = false;
};

}  // namespace ppsbench::store::detail
