// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <deque>
#include <functional>

#include "ppsbench/capture/pulse_source.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/pulse_sink.hpp"

namespace ppsbench::capture::fakes {

// A scripted source for the capture loop's tests: each step is a wait outcome, with the pulses
// a `ready` step delivers. Real sources are tested separately; this one only drives the loop.
struct Step {
    WaitResult result = WaitResult::ready;
    std::vector<core::Pulse> pulses;
    bool fail = false;  // throw MeasurementError instead (the device vanished)
};

class ScriptedSource final : public PulseSource {
  public:
    explicit ScriptedSource(std::deque<Step> steps, bool paced = true) : steps_(std::move(steps)) {
        info_.spec = "fake:scripted";
        info_.kind = "fake";
        info_.paced = paced;
    }
    WaitResult wait(core::Duration) override {
        if (steps_.empty()) {
            return WaitResult::end_of_stream;
        }
        current_ = std::move(steps_.front());
        steps_.pop_front();
        if (current_.fail) {
            throw core::MeasurementError("fake: device vanished");
        }
        return current_.result;
    }
    std::size_t read(std::span<core::Pulse> out) override {
        const std::size_t n = std::min(out.size(), current_.pulses.size());
        std::copy_n(current_.pulses.begin(), n, out.begin());
        current_.pulses.erase(current_.pulses.begin(),
                              current_.pulses.begin() + static_cast<std::ptrdiff_t>(n));
        return n;
    }
    const SourceInfo& info() const override { return info_; }

  private:
    SourceInfo info_;
    std::deque<Step> steps_;
    Step current_;
};

class VectorSink final : public core::PulseSink {
  public:
    void write(std::span<const core::Pulse> pulses) override {
        pulses_.insert(pulses_.end(), pulses.begin(), pulses.end());
    }
    std::vector<core::Pulse> pulses_;
};

}  // namespace ppsbench::capture::fakes
