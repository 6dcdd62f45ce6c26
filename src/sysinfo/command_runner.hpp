// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ppsbench::sysinfo::detail {

// Runs argv (argv[0] a path; no shell) with stdin and stderr on /dev/null and returns its
// standard output (at most 64 KiB), or nothing when it cannot be started or exits non-zero.
std::optional<std::string> run_program(const std::vector<std::string>& argv);

}  // namespace ppsbench::sysinfo::detail
