// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Private to store: a big capture file's body read on two threads (issue 26: the analysis waits
// for the pulses, and the second core is idle meanwhile). The body is cut into blocks (about a
// mebibyte) at line starts; each thread reads and parses the next block not yet taken, then
// commits it into the parser when every block before it is in, so the pulses, notes and line
// numbers come out as one thread would give them.

#include <cstddef>

#include "store/capture_parser.hpp"

namespace ppsbench::store::detail {

// Parses the lines that start in [start, end) of the file behind `fd` (start: the first byte
// after the column header, where `parser` stands), in blocks of parser.options().block_bytes,
// and commits them to `parser`; returns the
// offset after the last line committed. What it leaves (a line not complete by `end`, a block
// that did not parse, a file that changed under it) the caller reads on from there one block
// after another, which reports a malformed line with its number as the one-thread reader does.
std::size_t parse_body_on_two_threads(int fd, std::size_t start, std::size_t end,
                                      CaptureParser& parser);

}  // namespace ppsbench::store::detail
