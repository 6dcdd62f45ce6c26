// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>

namespace ppsbench::capture {

// Who else reads the PHC's external timestamps, and whether the kernel gives each reader its own
// event queue (Linux 6.7 and later) or one queue for all, where each event goes to whichever
// reader comes first (before 6.7).
struct PhcSharing {
    bool per_reader_queues = false;
    std::string other_reader;  // "ts2phc (pid 812)", empty when none runs
};
// This host's answer: the kernel release from uname(2), ts2phc from /proc/*/comm.
PhcSharing host_phc_sharing();

}  // namespace ppsbench::capture
