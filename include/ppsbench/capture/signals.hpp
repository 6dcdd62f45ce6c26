#pragma once

namespace ppsbench::capture {

// While alive, SIGINT and SIGTERM set a flag instead of killing the process, so the capture
// loop can finish its batch, close the file and print the summary. The handlers are installed
// without SA_RESTART so a blocking PPS fetch or sleep returns EINTR at once. The previous
// handlers come back on destruction; a second Ctrl-C then ends the process the usual way.
class StopOnSignals {
  public:
    StopOnSignals();
    ~StopOnSignals();
    StopOnSignals(const StopOnSignals&) = delete;
    StopOnSignals& operator=(const StopOnSignals&) = delete;

    const volatile bool* flag() const;
    // Which signal arrived (0 if none), for the message.
    int signal_number() const;
};

}  // namespace ppsbench::capture
