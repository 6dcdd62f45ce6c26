// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/capture/realtime.hpp"
#include "ppsbench/capture/signals.hpp"

namespace ppsbench::session {

// The one lifecycle of a capture session, in the shape of rtla's tool lifecycle (parse, init,
// apply settings, enable, main loop, report, free). The app parses; run_lifecycle() does the
// rest in this order for every session, so no session can skip or reorder a step:
//
//   open      the sources (and a latency run's drive line): nothing is created yet, so a
//             device that cannot be used leaves nothing behind
//   settings  the real-time settings of the process (capture::RealtimeGuard: CPU, SCHED_FIFO,
//             mlock, cpu_dma_latency), held to the end and restored on every exit path
//   enable    the files, then the helper threads (chrony, live figures), then the status line
//   main loop until the limits, a signal (capture::StopOnSignals, installed just before) or a
//             failure; a path's own settings (two-path runs) are applied on its thread here
//   finish    stop the helpers, write the end records; with no pulse at all the files are
//             removed instead (abandon), so a retry with the same -o works
//   report    the app prints the summary from the files
//
// The three sessions (single run: run_session.cpp, two-path run: dual_run.cpp, latency:
// latency_session.cpp) and what each gets. Where one does not apply, this is why:
//
//                       single   two-path            latency
//   chrony samples      yes      yes, one sampler    no: its edges are driven by this host,
//                                                    chronyd's view says nothing about them
//   meta.system         yes      yes, per path       yes (the sense path's)
//   status line         yes      one line per path   no: a loopback run prints its table
//   progress lines      yes      one line per path   no: as above
//   --rotate            yes      yes, files linked   no: one record file, paired afterwards
//   --prometheus        yes      one file, path=     no: its figures are latencies, not
//                                                    offsets (docs/latency.md)
//   per-path CPU/prio   -        yes                 no: one thread drives and senses
class Session {
  public:
    virtual ~Session() = default;
    virtual void open() = 0;
    // What the process holds during the capture (after open: a source may decide it).
    virtual capture::RealtimeOptions settings() const = 0;
    virtual void enable() = 0;
    virtual void main_loop(capture::StopFlag stop) = 0;
    // After the loop, with why it stopped (signals) and the settings still held.
    virtual void finish(const capture::StopOnSignals& signals) = 0;
    // enable or the main loop failed without a pulse (core::InputError: no first pulse) or
    // with an error that is not a measurement's: stop the helpers and remove the files.
    virtual void abandon() noexcept = 0;
};

// Runs `session` through the lifecycle above. Errors from open and settings leave nothing to
// undo; from enable and the main loop, abandon() runs before they reach the caller.
void run_lifecycle(Session& session);

}  // namespace ppsbench::session
