// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ppsbench/chrony/sampler.hpp"
#include "ppsbench/session/worker_thread.hpp"

namespace ppsbench::session {

// Samples chronyd during a run on its own thread: running chronyc takes milliseconds, and the
// capture thread must be back in the kernel's wait before the next edge. Each sample is handed
// to `record` (which writes a `# chrony` note); the latest RMS offset is kept for the status
// line. One sample at the start (synchronously, so a missing chronyd is said before the capture
// begins), every interval, and one at the end.
class ChronyMonitor {
  public:
    using Record = std::function<void(const nlohmann::json& sample)>;

    ChronyMonitor(chrony::SamplerOptions options, Record record);
    ~ChronyMonitor();
    ChronyMonitor(const ChronyMonitor&) = delete;
    ChronyMonitor& operator=(const ChronyMonitor&) = delete;

    // Takes the final sample and joins the thread. Idempotent.
    void stop();

    // For the status line: chrony's RMS offset from the latest synchronised sample.
    const std::atomic<std::int64_t>& latest_rms_offset_ns() const { return latest_rms_; }
    static constexpr std::int64_t no_value = INT64_MIN;

    // Each change of chrony's state, once (chronyd not running, died, not synchronised...).
    std::vector<std::string> notices() const;

  private:
    void take_sample();

    chrony::ChronySampler sampler_;
    Record record_;
    std::atomic<std::int64_t> latest_rms_{no_value};
    mutable std::mutex mutex_;  // guards notices_
    std::vector<std::string> notices_;
    std::optional<PeriodicWorker> worker_;  // last: it calls take_sample() until stopped
};

}  // namespace ppsbench::session
