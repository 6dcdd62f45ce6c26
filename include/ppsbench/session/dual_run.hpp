// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <array>
#include <string>

#include "ppsbench/session/run_session.hpp"

namespace ppsbench::session {

// `ppsbench run --source A --source B`: the same edges through two paths at once. Each path is
// captured by its own thread into its own ordinary capture file (report, compare, replay work
// on either), linked by a "dual" key in the metadata. A monotonic-clock path (GPIO) also
// records, per pulse, CLOCK_REALTIME − CLOCK_MONOTONIC sampled as the pulse was read, so the two
// files can be put on one time base and paired afterwards (latency/paired.hpp).
struct DualRunOutcome {
    std::array<RunOutcome, 2> paths;
};

// `options.source_spec` and `options.output_path` are ignored: `specs` and `outputs` give one
// per path. Both sources are opened before any file is created, so a source that cannot be
// opened leaves nothing behind; if either path sees no pulse at all, both files are removed and
// the error is thrown. A path failing mid-run stops the other; what both captured is kept.
DualRunOutcome execute_dual_run(const RunOptions& options, const std::array<std::string, 2>& specs,
                                const std::array<std::string, 2>& outputs);

// The two file names for `-o FILE` with two sources: FILE with -1 and -2 before its extension
// ("dual.csv" → "dual-1.csv", "dual-2.csv"); no -o gives ppsbench-<UTC time>-1.csv and -2.csv.
std::array<std::string, 2> dual_output_paths(const std::string& output_path);

}  // namespace ppsbench::session
