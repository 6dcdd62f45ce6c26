// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "ppsbench/sysinfo/fingerprint.hpp"

namespace ppsbench::session {

// Where a poll: path may spin (issue 24, placement). A polled reference busy-polls at
// SCHED_FIFO on its CPU; on the CPU that takes the PPS interrupt, or the one its irq/N thread
// runs on, it delays the very timestamp it measures, and the bias it reports is its own doing.
struct PollPlacement {
    std::string path;        // "A" or "B": the poll: path
    std::string spec;        // its --source
    int cpu = 0;             // its --cpu
    std::string pps_device;  // the other path's PPS device, "/dev/pps0"
};

// The refusal, one line naming the poll path's CPU, the interrupt's or thread's CPU and the
// fix; nullopt when the CPUs differ or what the interrupt uses cannot be told (no IRQ found,
// an affinity of several CPUs and no count yet). The interrupt's CPU is the one that serves
// it (sysinfo::PpsIrq::serving_cpu); the thread's is its affinity when that is one CPU, else
// the CPU it last ran on.
std::optional<std::string> poll_placement_conflict(const PollPlacement& placement,
                                                   const sysinfo::PpsIrq& irq);

// Reads the PPS device's interrupt under `sysroot` (as doctor does) and throws
// core::UsageError with poll_placement_conflict's line when there is one. A device whose
// interrupt cannot be found passes: nothing says the placement is wrong.
void check_poll_placement(const PollPlacement& placement,
                          const std::filesystem::path& sysroot = "/");

// A poll: reference that polls every period (pattern=1, 11, ...) leaves no period unpolled, and
// the unpolled periods are what the bias, calibrate and the live bias measure (a polled period's
// timestamp was taken beside a spinning poller). Throws core::UsageError naming `spec` and the
// path it serves (`peer`) for such a poll: source (its `details` hold the pattern); nothing for
// any other source.
void check_poll_reference_pattern(const std::string& spec, const nlohmann::json& details,
                                  std::string_view peer);

}  // namespace ppsbench::session
