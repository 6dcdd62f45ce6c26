// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <csignal>

#include "ppsbench/store/run_record.hpp"

namespace ppsbench::capture {

// While alive, SIGINT, SIGTERM and SIGHUP set a flag instead of killing the process, so the
// capture loop can finish its batch, close the file and print the summary. SIGHUP is what an ssh
// session that drops sends: an hour's capture must keep its end record. A SIGHUP that is already
// ignored when the run starts (nohup, which docs/cli.md recommends) stays ignored. The handlers
// are installed without SA_RESTART so a blocking PPS fetch or sleep returns EINTR at once. The
// previous handlers come back on destruction; a second Ctrl-C then ends the process the usual
// way.
class StopOnSignals {
  public:
    StopOnSignals();
    ~StopOnSignals();
    StopOnSignals(const StopOnSignals&) = delete;
    StopOnSignals& operator=(const StopOnSignals&) = delete;

    const volatile bool* flag() const;
    // Which signal arrived (0 if none), for the message.
    int signal_number() const;
    // The end record's reason for a capture the flag stopped: `hangup` for SIGHUP, else
    // `interrupted`. Any other reason is returned as it is.
    store::StopReason stop_reason(store::StopReason loop_reason) const;
};

// The signals StopOnSignals turns into a clean stop. Every worker thread blocks them (see
// session/worker_thread.hpp), so the kernel delivers them to the capture thread, whose blocking
// wait they interrupt.
sigset_t stop_signals();

}  // namespace ppsbench::capture
