// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// tracking.log rows as the samples a run's `chronyc` sampler would have taken (`report
// --chrony-log`), so one summary and one table serve both.

#include <cstdint>
#include <vector>

#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/chrony/sampler.hpp"

namespace ppsbench::chrony {

// The entries of `log` whose time is within [first_ns, last_ns] (UTC), in order, each as a
// sample: status ok with chrony's RMS offset rebuilt for its process (logs.hpp), or
// not-synchronised for a `?` line and for the lines of a process before its first clock update.
// tracking.log has no sources or sourcestats: the samples hold no PPS rows. The reference ID is
// the IPv4 address or the refclock's refid; for an IPv6 reference (chrony hashes it) it is 0.
std::vector<ChronySample> tracking_log_samples(const TrackingImport& log, std::int64_t first_ns,
                                               std::int64_t last_ns);

}  // namespace ppsbench::chrony
