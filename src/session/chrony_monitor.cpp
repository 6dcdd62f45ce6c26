// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/chrony_monitor.hpp"

#include "ppsbench/chrony/json.hpp"

namespace ppsbench::session {

ChronyMonitor::ChronyMonitor(chrony::SamplerOptions options, Record record)
    : sampler_(std::move(options)), record_(std::move(record)) {
    take_sample();
    // On a worker thread, so Ctrl-C reaches the capture thread (and the chronyc it starts,
    // which inherits the mask, is not interrupted by it either).
    const auto interval = sampler_.options().interval;
    worker_.emplace(PeriodicWorker::Clock::now() + interval, [this, interval](auto) {
        take_sample();
        return PeriodicWorker::Clock::now() + interval;  // a slow chronyc delays, never piles up
    });
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

void ChronyMonitor::stop() {
    if (!worker_) {
        return;
    }
    worker_.reset();  // joins
    take_sample();    // the end of the run
}

std::vector<std::string> ChronyMonitor::notices() const {
    const std::lock_guard lock(mutex_);
    return notices_;
}

}  // namespace ppsbench::session
