// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::session {

// One configuration of the demo: a sim model and the row label it stands for.
struct DemoConfiguration {
    std::string label;
    std::string source_spec;
};

// The write-up's three configurations: stock kernel, PREEMPT_RT (force-threaded pps-gpio
// handler), PREEMPT_RT with the handler marked IRQF_NO_THREAD. All simulated.
std::vector<DemoConfiguration> demo_configurations();

// Captures `duration` of pulses from a source into memory (no file), as `ppsbench run` would.
store::CaptureFile capture_in_memory(const DemoConfiguration& configuration,
                                     const capture::SourceOptions& options,
                                     core::Duration duration);

}  // namespace ppsbench::session
