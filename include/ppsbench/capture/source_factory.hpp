#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "ppsbench/capture/pulse_source.hpp"

namespace ppsbench::capture {

// Options every source understands; a source ignores what does not apply to it.
struct SourceOptions {
    core::EdgeSelection edges = core::EdgeSelection::assert_only;
    core::Duration period = std::chrono::seconds{1};
    // --period was given rather than defaulted: a replay takes its file's recorded period and
    // refuses a --period that contradicts it.
    bool period_given = false;
    std::uint64_t seed = 1;
    bool pace_realtime = false;  // sim and replay: deliver pulses at their real rate
    std::string bias;            // gpio: as-is (empty), pull-up, pull-down, disable
};

// Maps a spec string to a source: "pps:/dev/pps0", "replay:FILE", "sim:MODEL[,knob=value...]",
// "gpio:CHIP:LINE", "ptp:/dev/ptpN[,extts=K][,pin=P]". Throws core::UsageError for an unknown
// scheme, naming the known ones.
std::unique_ptr<PulseSource> open_source(std::string_view spec, const SourceOptions& options);

}  // namespace ppsbench::capture
