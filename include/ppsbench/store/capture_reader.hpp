// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>

#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::store {

// Reads a whole capture file. Streams the file in large blocks and parses with from_chars: no
// allocation per line. A last line without its newline is what a crash or power cut leaves; it
// is dropped with a warning in CaptureFile::warnings. Any other malformed line throws
// core::InputError naming FILE:LINE and what was expected.
CaptureFile read_capture_file(const std::string& path);

// Parses capture-file text already in memory (the same rules); `path` is only for messages.
CaptureFile parse_capture_text(std::string_view text, const std::string& path);

}  // namespace ppsbench::store
