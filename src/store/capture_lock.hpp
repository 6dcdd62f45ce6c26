// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <string>

namespace ppsbench::store::detail {

// A capture is locked while it is written: flock(LOCK_EX) on the writer's descriptor, released
// when the file closes (or the process dies, however it dies). Only regular files are locked; a
// pipe or /dev/full has no one else to protect it from.

// Takes the writer's lock without waiting. False when another open file holds a lock on it. A
// reader's probe (is_being_written) holds its lock for microseconds, so a few short retries
// tell it apart from a run that holds the file for hours.
bool try_lock_for_writing(int fd);

// True when a writer holds the lock on the file `fd` reads. Probes with a shared lock that is
// released at once, so a reader never holds up a writer.
bool is_being_written(int fd);

// Who holds the flock on the file `fd` is open on, from /proc/locks and /proc/PID/cmdline:
// "pid 4711 (ppsbench run -o lock.csv)"; "another process" when /proc does not say (another
// PID namespace, no /proc).
std::string lock_holder(int fd);

}  // namespace ppsbench::store::detail
