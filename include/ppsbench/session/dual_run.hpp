// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <array>
#include <string>
#include <vector>

#include "ppsbench/session/run_session.hpp"

namespace ppsbench::session {

// `ppsbench run --source A --source B`: the same edges through two paths at once. Each path is
// captured by its own thread into its own ordinary capture file (report, compare, replay work
// on either), linked by a "dual" key in the metadata. A monotonic-clock path (GPIO) also
// records, per pulse, CLOCK_REALTIME − CLOCK_MONOTONIC sampled as the pulse was read, so the two
// files can be put on one time base and paired afterwards (latency/paired.hpp).
//
// A two-path run gets what a single run has (lifecycle.hpp lists it): chrony samples from one
// sampler, noted in the file of the path whose device is chrony's refclock (both files when
// that is unknown); the kernel fingerprint for host-hardware paths; a status line and progress
// lines per path; --rotate, each path's files rotating at the same seams, with one run id in
// both paths' store::Rotation; one live --prometheus file whose series carry path="A"/"B";
// and each path's own CPU and priority (RunOptions::path_realtime).
struct DualRunOutcome {
    std::array<RunOutcome, 2> paths;
    // What chrony's sampling met, each change once.
    std::vector<std::string> chrony_notices;
};

// `options.source_spec` and `options.output_path` are ignored: `specs` and `outputs` give one
// per path (with --rotate, one strftime pattern per path); empty `outputs` claim a pair of
// default names (claim_default_output_pair). Both sources are opened before any file is
// created, so a source that cannot be opened leaves nothing behind; if either path sees no
// pulse at all, or a path's own settings are refused, both files are removed and the error is
// thrown. A path failing mid-run stops the other; what both captured is kept.
DualRunOutcome execute_dual_run(const RunOptions& options, const std::array<std::string, 2>& specs,
                                const std::array<std::string, 2>& outputs);

// The two file names for `-o FILE` with two sources: FILE with -1 and -2 before its extension
// ("dual.csv" → "dual-1.csv", "dual-2.csv"; a --rotate pattern the same way). Empty without -o:
// execute_dual_run then claims ppsbench-<UTC time to the ms>-1.csv and -2.csv.
std::array<std::string, 2> dual_output_paths(const std::string& output_path);

}  // namespace ppsbench::session
