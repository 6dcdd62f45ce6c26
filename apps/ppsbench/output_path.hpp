#pragma once

#include <string>
#include <string_view>

namespace ppsbench::app {

// Checks, before any work starts, that `path` can be created as a new file for `option` (-o,
// --plot, --junit, --prometheus): it must not be a directory, must not exist unless `force`,
// and its folder must exist on a writable, real file system. Throws core::UsageError naming the
// actual problem (a directory, a missing folder, a read-only or virtual file system, no
// permission), so a bad path costs nothing instead of a finished capture or gate.
void check_output_path(const std::string& path, std::string_view option, bool force);

}  // namespace ppsbench::app
