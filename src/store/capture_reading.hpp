// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Private to store: a capture file read into a CaptureParser, block by block, a big file's body
// on two threads (parallel_body.hpp); read_capture_file and read_packed_capture are this with
// their parser, and the tests and the fuzz harness take it with small blocks.

#include "ppsbench/store/capture_file.hpp"
#include "store/capture_parser.hpp"

namespace ppsbench::store::detail {

// Reads the file at file.path into `parser` (which writes into `file`); sets file.writer when
// a run still writes it. A file that cannot be read, or a malformed line, throws
// core::InputError naming the file (and the line).
void read_capture_into(CaptureFile& file, CaptureParser& parser);

}  // namespace ppsbench::store::detail
