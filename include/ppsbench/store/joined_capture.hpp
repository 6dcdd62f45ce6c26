// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// `report --join FILE...`: the files of one `run --rotate` read as the one capture they were
// cut from. Each part is read as read_packed_capture() reads a file (two parts at a time, one
// thread each), checked against the others by its metadata (RunMeta::rotation: run id and part
// number), and its pulses appended in part order to one core::PackedPulses, sized once for all
// the parts: a year of daily parts needs about the memory of one file of the same pulses.

#include <string>
#include <vector>

#include "ppsbench/store/packed_capture_reader.hpp"

namespace ppsbench::store {

// The parts in any order, joined in part order: the first part's metadata, every part's
// pulses (packed; `file.pulses` is left empty), notes (counted from the run's first pulse) and
// warnings, and the last part's end record (its counts are the run's). Its `file.path` names
// the first and last part. Throws core::InputError, naming the files, for a file
// that is no part of a --rotate run (or from before run ids), parts of two runs, a part given
// twice, a part missing between two given, parts whose pulses overlap in time, and parts with
// different columns.
PackedCapture read_joined_capture(const std::vector<std::string>& paths);

}  // namespace ppsbench::store
