// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace ppsbench::session {

// The output of a run given no -o: "PREFIX20260101T000000.123Z.csv", the UTC time of its
// creation to the millisecond. The name is claimed by creating the file (O_EXCL), so two runs
// started in the same second, or the same millisecond, get different files and neither replaces
// the other; a later claim gets a later time, so `ls` still lists the files in the order the
// runs began (the nightly unit picks files that way). The file is left empty for the writer,
// which takes it over (CaptureWriter with overwrite). Throws core::InputError when the current
// directory is not writable, naming it and the fix.
std::string claim_default_output(std::string_view prefix);

// The same for the two files of a two-path run: "PREFIX<time>-1.csv" and "PREFIX<time>-2.csv",
// both of one millisecond, both claimed or neither (a pair half taken by another run is let go
// and the next millisecond tried), so two runs started in the same second never share a file.
std::array<std::string, 2> claim_default_output_pair(std::string_view prefix);

}  // namespace ppsbench::session
