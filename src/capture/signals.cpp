// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/capture/signals.hpp"

namespace ppsbench::capture {

namespace {

volatile bool stop_requested = false;
volatile std::sig_atomic_t received_signal = 0;
struct sigaction previous_int {};
struct sigaction previous_term {};
struct sigaction previous_hup {};
bool hup_handled = false;

extern "C" void on_stop_signal(int sig) {
    stop_requested = true;
    received_signal = sig;
    // Restore the default so a second Ctrl-C ends a wedged process.
    std::signal(sig, SIG_DFL);
}

}  // namespace

sigset_t stop_signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    return set;
}

StopOnSignals::StopOnSignals() {
    stop_requested = false;
    received_signal = 0;
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: blocking calls must return EINTR
    sigaction(SIGINT, &action, &previous_int);
    sigaction(SIGTERM, &action, &previous_term);
    // nohup's SIG_IGN is the user's choice to outlive the terminal: keep it.
    sigaction(SIGHUP, nullptr, &previous_hup);
    hup_handled = previous_hup.sa_handler != SIG_IGN;
    if (hup_handled) {
        sigaction(SIGHUP, &action, nullptr);
    }
}

StopOnSignals::~StopOnSignals() {
    sigaction(SIGINT, &previous_int, nullptr);
    sigaction(SIGTERM, &previous_term, nullptr);
    if (hup_handled) {
        sigaction(SIGHUP, &previous_hup, nullptr);
    }
}

const volatile bool* StopOnSignals::flag() const {
    return &stop_requested;
}

int StopOnSignals::signal_number() const {
    return received_signal;
}

store::StopReason StopOnSignals::stop_reason(store::StopReason loop_reason) const {
    if (loop_reason == store::StopReason::interrupted && received_signal == SIGHUP) {
        return store::StopReason::hangup;
    }
    return loop_reason;
}

}  // namespace ppsbench::capture
