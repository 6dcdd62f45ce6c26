// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <string_view>

namespace ppsbench::store {

// Why a capture ended: the capture loop decides it, the end record (run_record.hpp) stores it.
// In its own header so the loop does not include the whole record for it.
enum class StopReason {
    count_reached,     // --count pulses captured
    duration_elapsed,  // --duration passed
    interrupted,       // Ctrl-C or SIGTERM
    end_of_stream,     // a finite source ran out (replay, an import)
    rotated,           // not the run's end: --rotate closed this file, the run went on in the next
    hangup,            // SIGHUP: the terminal or ssh session went away
    failed,            // the measurement failed mid-run (the end record's `failure` says how)
};

// The words the end record uses ("count", "duration", …); "unknown" for no such reason.
std::string_view to_string(StopReason reason);
std::optional<StopReason> parse_stop_reason(std::string_view text);

}  // namespace ppsbench::store
