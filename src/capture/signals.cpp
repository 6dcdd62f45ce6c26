#include "ppsbench/capture/signals.hpp"

#include <csignal>

namespace ppsbench::capture {

namespace {

volatile bool stop_requested = false;
volatile std::sig_atomic_t received_signal = 0;
struct sigaction previous_int {};
struct sigaction previous_term {};

extern "C" void on_stop_signal(int sig) {
    stop_requested = true;
    received_signal = sig;
    // Restore the default so a second Ctrl-C ends a wedged process.
    std::signal(sig, SIG_DFL);
}

}  // namespace

StopOnSignals::StopOnSignals() {
    stop_requested = false;
    received_signal = 0;
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: blocking calls must return EINTR
    sigaction(SIGINT, &action, &previous_int);
    sigaction(SIGTERM, &action, &previous_term);
}

StopOnSignals::~StopOnSignals() {
    sigaction(SIGINT, &previous_int, nullptr);
    sigaction(SIGTERM, &previous_term, nullptr);
}

const volatile bool* StopOnSignals::flag() const {
    return &stop_requested;
}

int StopOnSignals::signal_number() const {
    return received_signal;
}

}  // namespace ppsbench::capture
