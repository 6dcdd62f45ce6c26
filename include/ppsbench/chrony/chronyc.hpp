// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Running `chronyc -c -n [-h SOCKET] COMMAND`: fork/exec without a shell, with a deadline.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace ppsbench::chrony {

struct ChronycOptions {
    // Program to run; searched in PATH when it has no '/'. Tests point it at a missing path.
    std::string program = "chronyc";
    // chronyc's -h: a command socket path (or host). Empty: chronyc's default
    // (/run/chrony/chronyd.sock, then 127.0.0.1 and ::1).
    std::string socket;
    // chronyc retries for several seconds when chronyd does not answer (stopped, overloaded);
    // a capture must not stall that long.
    std::chrono::milliseconds timeout{3000};
};

enum class ChronycOutcome : std::uint8_t {
    ok,         // exit 0; `out` holds the CSV
    missing,    // the program could not be started (not installed, not executable)
    no_daemon,  // chronyc could not reach chronyd (socket absent or refused)
    timed_out,  // chronyc did not finish within the timeout; it was killed
    failed,     // any other non-zero exit
};

struct ChronycResult {
    ChronycOutcome outcome = ChronycOutcome::failed;
    std::string out;
    // One line for messages: chronyc's own complaint, or the spawn error.
    std::string detail;
};

// Runs `chronyc -c -n [-h socket] command`. Never throws for chronyc's failures; they are in
// the outcome.
ChronycResult run_chronyc(const ChronycOptions& options, std::string_view command);

}  // namespace ppsbench::chrony
