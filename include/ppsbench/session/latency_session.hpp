// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "ppsbench/capture/realtime.hpp"
#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/latency/latency_loop.hpp"

namespace ppsbench::session {

// Everything `ppsbench latency` needs, parsed by the app.
struct LatencyOptions {
    std::string drive_spec;  // CHIP:LINE
    std::string sense_spec;  // gpio:CHIP:LINE or pps:/dev/ppsN
    capture::SourceOptions sense;
    latency::LatencyLimits limits;
    capture::RealtimeOptions realtime;
    std::string label;
    std::string output_path;  // empty: ppsbench-latency-<UTC time>.csv
    bool overwrite = false;
    std::vector<std::string> command_line;
    std::string proc_stat = "/proc/stat";  // where the CPU idle fraction is read
};

struct LatencyOutcome {
    std::string output_path;
    latency::LatencyProgress progress;
    std::string failure;  // the drive or sense line failed mid-run: records so far are kept
};

// Validates the specs (core::UsageError), opens the sense source and then the drive line
// (core::InputError, nothing created), writes a capture file with "kind":"latency" and the
// drive_ns / wake_ns columns, runs the loop under the real-time settings with Ctrl-C handled,
// and ends the file with the counts and the CPU idle fraction over the run.
LatencyOutcome execute_latency(const LatencyOptions& options);

}  // namespace ppsbench::session
