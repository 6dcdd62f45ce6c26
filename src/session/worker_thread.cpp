// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/worker_thread.hpp"

#include <pthread.h>

#include "ppsbench/capture/signals.hpp"

namespace ppsbench::session {

StopSignalsBlocked::StopSignalsBlocked() : previous_() {
    const sigset_t blocked = capture::stop_signals();
    pthread_sigmask(SIG_BLOCK, &blocked, &previous_);
}

StopSignalsBlocked::~StopSignalsBlocked() {
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

PeriodicWorker::PeriodicWorker(Clock::time_point first, Tick tick)
    : tick_(std::move(tick)), next_(first) {
    thread_ = start_worker_thread([this] { loop(); });
}

PeriodicWorker::~PeriodicWorker() {
    stop();
}

void PeriodicWorker::loop() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        wake_.wait_until(lock, next_, [this] { return stopping_; });
        if (stopping_) {
            break;
        }
        lock.unlock();
        next_ = tick_(Clock::now());
        lock.lock();
    }
}

void PeriodicWorker::stop() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) {
        thread_.join();
    }
}

}  // namespace ppsbench::session
