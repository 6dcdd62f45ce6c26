// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/lifecycle.hpp"

namespace ppsbench::session {

void run_lifecycle(Session& session) {
    session.open();
    const capture::RealtimeGuard realtime(session.settings());
    try {
        session.enable();
    } catch (...) {
        session.abandon();
        throw;
    }
    const capture::StopOnSignals signals;
    try {
        session.main_loop(signals.flag());
    } catch (...) {
        // A measurement failure mid-run is not here: the sessions keep what they captured and
        // finish. What reaches this point is a run that measured nothing.
        session.abandon();
        throw;
    }
    session.finish(signals);
}

}  // namespace ppsbench::session
