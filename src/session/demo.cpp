// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/demo.hpp"

#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/session/run_session.hpp"

namespace ppsbench::session {

namespace {
class VectorSink final : public core::PulseSink {
  public:
    explicit VectorSink(std::vector<core::Pulse>& pulses) : pulses_(pulses) {}
    void write(std::span<const core::Pulse> pulses) override {
        pulses_.insert(pulses_.end(), pulses.begin(), pulses.end());
    }

  private:
    std::vector<core::Pulse>& pulses_;
};
}  // namespace

std::vector<DemoConfiguration> demo_configurations() {
    return {{"Stock kernel", "sim:hardirq"},
            {"PREEMPT_RT", "sim:threaded"},
            {"PREEMPT_RT + IRQF_NO_THREAD", "sim:nothread"}};
}

store::CaptureFile capture_in_memory(const DemoConfiguration& configuration,
                                     const capture::SourceOptions& options,
                                     core::Duration duration) {
    auto source = capture::open_source(configuration.source_spec, options);
    store::CaptureFile file;
    file.path = configuration.source_spec;
    RunOptions run;
    run.label = configuration.label;
    file.set_meta(make_run_metadata(run, source->info()));
    VectorSink sink(file.pulses);
    capture::CaptureLimits limits;
    limits.duration = duration;
    const auto progress = capture::run_capture(*source, sink, limits, nullptr);
    file.notes.push_back({"end", store::to_json(end_record(progress, 0, {})), file.pulses.size()});
    return file;
}

}  // namespace ppsbench::session
