#include "ppsbench/session/chrony_monitor.hpp"

#include <pthread.h>
#include <csignal>

#include "ppsbench/chrony/json.hpp"

namespace ppsbench::session {

ChronyMonitor::ChronyMonitor(chrony::SamplerOptions options, Record record)
    : sampler_(std::move(options)), record_(std::move(record)) {
    take_sample();
    // Ctrl-C must reach the capture thread, whose blocking wait it interrupts; the sampling
    // thread (and the chronyc it starts, which inherits the mask) keeps SIGINT/SIGTERM blocked.
    sigset_t stop_signals;
    sigset_t previous;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, &previous);
    thread_ = std::thread([this] { loop(); });
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

ChronyMonitor::~ChronyMonitor() {
    try {
        stop();
    } catch (...) {
        // A failed final note must not end the process from a destructor; the run's own
        // close() reports a failing disk.
    }
}

void ChronyMonitor::take_sample() {
    const auto sample = sampler_.sample();
    if (const auto rms = sample.rms_offset_ns()) {
        latest_rms_ = *rms;
    }
    if (const auto& notice = sampler_.notice()) {
        const std::lock_guard lock(mutex_);
        notices_.push_back(*notice);
    }
    record_(nlohmann::json(sample));
}

void ChronyMonitor::loop() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        wake_.wait_for(lock, sampler_.options().interval, [this] { return stopping_; });
        if (stopping_) {
            break;
        }
        lock.unlock();
        take_sample();
        lock.lock();
    }
}

void ChronyMonitor::stop() {
    {
        const std::lock_guard lock(mutex_);
        if (stopping_) {
            return;
        }
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) {
        thread_.join();
    }
    take_sample();  // the end of the run
}

std::vector<std::string> ChronyMonitor::notices() const {
    const std::lock_guard lock(mutex_);
    return notices_;
}

}  // namespace ppsbench::session
