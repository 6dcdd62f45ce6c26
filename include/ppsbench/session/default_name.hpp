// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

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

}  // namespace ppsbench::session
