// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// `report --join FILE...`: the files of one `run --rotate` read as the one capture they were
// cut from. A thin layer over read_capture_file(): each part is read on its own, checked
// against the others by its metadata (RunMeta::rotation: run id and part number), and its
// pulses appended; no part's text is held once it is parsed.

#include <string>
#include <vector>

#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::store {

// The parts in any order, joined in part order: the first part's metadata, every part's
// pulses, notes and warnings, and the last part's end record (its counts are the run's). Its
// `path` names the first and last part. Throws core::InputError, naming the files, for a file
// that is no part of a --rotate run (or from before run ids), parts of two runs, a part given
// twice, a part missing between two given, parts whose pulses overlap in time, and parts with
// different columns.
CaptureFile read_joined_capture(const std::vector<std::string>& paths);

}  // namespace ppsbench::store
