// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Running a helper program (chronyc, chronyd --version) without a shell, with a
// deadline, capturing its output. Not a general process library on purpose.

#include <chrono>
#include <string>
#include <vector>

namespace ppsbench::core {

struct ProcessResult {
    // errno from posix_spawn when the program could not be started (ENOENT: not installed);
    // 0 when it ran.
    int spawn_error = 0;
    bool timed_out = false;
    // Exit status when the program exited normally, else -1 (killed by a signal).
    int exit_code = -1;
    std::string out;
    std::string err;
};

// Runs argv[0] (searched in PATH when it contains no '/') with argv, stdin from /dev/null and
// LC_ALL=C (chronyc's numbers must not depend on the user's locale). Kills the child with
// SIGKILL when it has not finished within `timeout`. Never throws for a failing child; throws
// core::MeasurementError only when the system refuses pipes or memory.
ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::milliseconds timeout);

}  // namespace ppsbench::core
