// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "ppsbench/store/run_record.hpp"

namespace ppsbench::store {

// A capture file's `# meta` line, read without its pulses (a day of them is 3 MB).
struct CaptureHeader {
    RunMeta meta;
    std::size_t body_bytes = 0;  // the file's bytes after the header lines, to size the pulses
};

// The header of a plain (uncompressed) regular capture file, never of a pipe (reading would
// consume it); nullopt when the file is not a regular file, cannot be opened or
// has no `# meta` line among its first comment lines (a compressed file, another format): the
// caller then reads it whole, so any error is the full reader's. Never throws.
std::optional<CaptureHeader> read_capture_header(const std::string& path);

}  // namespace ppsbench::store
