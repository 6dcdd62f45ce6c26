// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <string>

#include "ppsbench/store/capture_file.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::analysis {

// Where the reference of a two-path run's path is: beside the path's file only (its folder,
// never the current directory, where another run's file of the same name may sit). The file
// `dual.peer_file` names; for a rotated part (whose peer_file is a pattern), the other path's
// part of the same run id that was open when this part began (the latest to start at or before
// its seam: the paths' part numbers can differ), found by reading the headers beside it.
// nullopt when the metadata names no reference. Throws core::InputError when a rotated part's
// partner is not there.
std::optional<std::string> reference_file(const store::RunMeta& meta,
                                          const std::string& capture_path);

// The reference `capture_path`'s header names, for a command's file plan (so no output replaces
// it): nullopt when there is none, the header cannot be read, or a rotated partner is missing
// (the read itself then says so). Never throws.
std::optional<std::string> reference_file_of(const std::string& capture_path);

// Throws core::InputError naming both files when `reference` is not `file`'s: it must name this
// path back (its other path's source and letter) and, when both carry one, the same run id.
void check_reference_is_its_own(const store::CaptureFile& file,
                                const store::CaptureFile& reference);

}  // namespace ppsbench::analysis
