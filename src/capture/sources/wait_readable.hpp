// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: how the character-device sources (GPIO line events, PHC external timestamps) block
// in the kernel until their fd has something to read. One ppoll(), no busy wait; a signal
// (Ctrl-C) wakes it as `interrupted` so the loop can stop cleanly.

#include <poll.h>

#include "ppsbench/capture/pulse_source.hpp"
#include "ppsbench/core/duration.hpp"

namespace ppsbench::capture::detail {

// `events` are what counts as readable (POLLIN, or POLLIN | POLLPRI); anything else the kernel
// reports without them (POLLERR once a PHC is unregistered, POLLHUP) is the end of the stream.
WaitResult wait_readable(int fd, short events, core::Duration timeout);

}  // namespace ppsbench::capture::detail
