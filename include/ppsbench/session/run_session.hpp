// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdio>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/capture/realtime.hpp"
#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/chrony/sampler.hpp"
#include "ppsbench/session/live_metrics.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::session {

// Everything `ppsbench run` needs, already parsed and validated by the app.
struct RunOptions {
    std::string source_spec = "pps:/dev/pps0";
    capture::SourceOptions source;
    capture::CaptureLimits limits;
    // What the process holds for the capture (RealtimeGuard); a two-path run's threads inherit
    // its CPU and priority unless path_realtime gives them their own.
    capture::RealtimeOptions realtime;
    // A two-path run: each path's own CPU and SCHED_FIFO priority, in --source order, applied on
    // that path's capture thread (only cpu and rt_priority are read). Empty: none.
    std::vector<capture::RealtimeOptions> path_realtime;
    std::string label;
    std::string output_path;  // empty: ppsbench-YYYYmmddTHHMMSSZ.csv in the current directory
    bool overwrite = false;
    // A live status line on this stream (the app passes stderr when it is a terminal and
    // --quiet was not given), else nullptr.
    std::FILE* status_stream = nullptr;
    // chronyd's view during the run: `automatic` samples for device sources (pps, gpio) and not
    // for simulations or replays, whose pulses have nothing to do with this host's chronyd.
    enum class Chrony { automatic, on, off };
    Chrony chrony = Chrony::automatic;
    chrony::SamplerOptions chrony_sampler;
    // --rotate: a new capture file every this long; output_path is then a strftime pattern
    // (capture_files.hpp).
    std::optional<core::Duration> rotate;
    // --prometheus and the progress lines for the journal: rolling figures during the run
    // (live_metrics.hpp). nullopt: neither.
    std::optional<LiveMetricsOptions> live;
    // The command line, recorded in the metadata so a run can be repeated.
    std::vector<std::string> command_line;
};

struct RunOutcome {
    std::string output_path;         // the last file with --rotate
    std::vector<std::string> files;  // every file of the run, in order
    capture::CaptureProgress progress;
    bool simulated = false;
    // Set when the run ended early because the source failed (device vanished): the pulses up
    // to then are in the file, and the app exits 1 after printing the summary.
    std::string failure;
    // What chrony's sampling met, each change once ("chronyd is not running", ...).
    std::vector<std::string> chrony_notices;
};

// Opens the source, writes the capture file's header, runs the capture loop under the
// requested real-time settings with Ctrl-C/SIGTERM handled, and writes the end record. Setup
// errors throw (nothing is created for a source that cannot be opened).
RunOutcome execute_run(const RunOptions& options);

// The `# meta` line of a run from `source`, started now.
store::RunMeta make_run_metadata(const RunOptions& options, const capture::SourceInfo& source);

// The limits a run of `sources` uses: as asked, except that when every source is endless and
// not paced (simulations), an hour of pulses when neither --count nor --duration was given.
capture::CaptureLimits effective_limits(const capture::CaptureLimits& asked,
                                        std::initializer_list<const capture::SourceInfo*> sources);

// The `# end` record of a capture that made `progress` (without its end time, which the caller
// stamps): `signal` 0 for none, `failure` empty for none.
store::EndRecord end_record(const capture::CaptureProgress& progress, int signal,
                            const std::string& failure);

}  // namespace ppsbench::session
