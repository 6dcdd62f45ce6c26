// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <signal.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace ppsbench::session {

// Starts `work` on a new thread that has the stop signals (capture::stop_signals(): SIGINT,
// SIGTERM, SIGHUP) blocked. A signal the kernel hands to a worker would not interrupt the capture
// thread's blocking wait, so a Ctrl-C could go unnoticed until the next pulse or timeout; with
// every worker blocking them, only the capture thread can take them. Programs a worker starts
// (chronyc) inherit the mask. The calling thread's mask is left as it was.
template <typename Work>
std::thread start_worker_thread(Work&& work);

// While alive, the calling thread has the stop signals blocked; a thread it creates inherits
// that mask. Restores the previous mask on destruction.
class StopSignalsBlocked {
  public:
    StopSignalsBlocked();
    ~StopSignalsBlocked();
    StopSignalsBlocked(const StopSignalsBlocked&) = delete;
    StopSignalsBlocked& operator=(const StopSignalsBlocked&) = delete;

  private:
    sigset_t previous_;
};

template <typename Work>
std::thread start_worker_thread(Work&& work) {
    const StopSignalsBlocked blocked;
    return std::thread(std::forward<Work>(work));
}

// A worker thread that runs `tick` whenever its deadline passes, until stop(): the chrony
// sampler and the live metrics writer. `tick(now)` does one round and returns when to run next.
// It runs without the worker's lock held, so it may take as long as it needs (a slow chronyc);
// stop() waits for a running tick to finish.
class PeriodicWorker {
  public:
    using Clock = std::chrono::steady_clock;
    using Tick = std::function<Clock::time_point(Clock::time_point now)>;

    PeriodicWorker(Clock::time_point first, Tick tick);
    ~PeriodicWorker();
    PeriodicWorker(const PeriodicWorker&) = delete;
    PeriodicWorker& operator=(const PeriodicWorker&) = delete;

    // Wakes the thread and joins it; no tick starts after this returns. Idempotent.
    void stop();

  private:
    void loop();

    Tick tick_;
    Clock::time_point next_;
    std::mutex mutex_;  // guards stopping_
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace ppsbench::session
