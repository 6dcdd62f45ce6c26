// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>

#include "ppsbench/core/packed_pulses.hpp"
#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::store {

// A capture file read for analysis (report, compare, gate: issue 26): its pulses packed
// (core::PackedPulses, 8 bytes a pulse and runs of sequence numbers instead of Pulse's 24) and
// `file.pulses` left empty; everything else exactly as read_capture_file reads it, with the same
// errors and warnings.
struct PackedCapture {
    CaptureFile file;
    core::PackedPulses pulses;
};
PackedCapture read_packed_capture(const std::string& path);

}  // namespace ppsbench::store
