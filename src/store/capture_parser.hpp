// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Private to store: the capture-file text parser behind read_capture_file and
// parse_capture_text (docs/capture-file.md). It keeps only what it needs between calls, so the
// reader can feed it a file of any size block by block. The header's lines it parses itself;
// the lines after the column header go through a BodyParser a block at a time, and each parsed
// block is committed in file order (by feed(), or by the two-thread reader: parallel_body.hpp).

#include <cstddef>
#include <string_view>

#include "ppsbench/core/packed_pulses.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/store/capture_file.hpp"
#include "store/body_parser.hpp"

namespace ppsbench::store::detail {

struct ParseOptions {
    // The body is parsed and committed in blocks of about this many bytes (whole lines), so a
    // text of any size needs only one block's columns at a time.
    std::size_t block_bytes = std::size_t{1} << 20;
    // The file reader takes a body this big on two threads (below it a second thread costs
    // more than it saves).
    std::size_t two_thread_bytes = std::size_t{4} << 20;
    // False: every body on the calling thread (the joined reader keeps two parts going instead).
    bool two_threads = true;
    // False: every line by the general rules, which the fast path is checked against (tests,
    // the fuzz harness).
    bool fast_path = true;
};

class CaptureParser {
  public:
    // The pulses go to `packed` when given (read_packed_capture), else to file.pulses.
    explicit CaptureParser(CaptureFile& file, core::PackedPulses* packed = nullptr,
                           const ParseOptions& options = {})
        : file_(file), packed_(packed), options_(options) {}

    // Splits `text` into lines and parses them into the file; returns the unterminated tail,
    // which the caller hands back with the next block. Malformed lines throw core::InputError
    // naming FILE:LINE and what was expected.
    std::string_view feed(std::string_view text);
    // The same up to the column header only: returns what follows it (or, while the header
    // goes on, the unterminated tail).
    std::string_view feed_header(std::string_view text);
    bool in_body() const { return header_seen_; }

    // At the end of the input: `torn_tail` (a last line without its newline, what a crash
    // leaves) becomes a warning; a file that ended inside its header throws.
    void finish(std::string_view torn_tail);

    // For parsing the body elsewhere: a parser of this file's body lines (it refers to the file,
    // which must outlive it), and the blocks it parsed, committed in file order: their pulses,
    // notes (counted from the pulses before them) and extra values, and their lines.
    BodyParser body_parser() const {
        return BodyParser(file_.path, file_.extra_columns, options_.fast_path);
    }
    void commit(BodyBlock& block);
    // Room for n pulses in what they go to, so that it does not grow by doubling.
    void reserve(std::size_t n);
    const ParseOptions& options() const { return options_; }

  private:
    void line(std::string_view text);
    [[noreturn]] void fail(std::string_view why) const;
    void comment(std::string_view text);
    void columns(std::string_view text);
    std::size_t pulses_so_far() const {
        return packed_ != nullptr ? packed_->size() : file_.pulses.size();
    }

    CaptureFile& file_;
    core::PackedPulses* packed_ = nullptr;
    ParseOptions options_;
    std::size_t line_number_ = 0;
    bool meta_seen_ = false;
    bool header_seen_ = false;
    BodyParser body_ = body_parser();
    BodyBlock block_;  // feed()'s, reused block after block
};

}  // namespace ppsbench::store::detail
