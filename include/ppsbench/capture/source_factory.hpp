// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "ppsbench/capture/pulse_source.hpp"

namespace ppsbench::capture {

// Options a source may read, each named as its command-line option. Each source declares those
// it reads in the source table (source_factory.cpp); the command line refuses the others.
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

// The names of SourceOptions' fields as command-line options (without "--").
inline constexpr std::array<std::string_view, 5> source_option_names{"edge", "period", "seed",
                                                                     "pace", "bias"};

// Whether the source `spec` names reads `option` (one of source_option_names), as its row in
// the source table declares. A spec of no known scheme reads everything: open_source refuses it
// with its own message.
bool source_reads(std::string_view spec, std::string_view option);

// The schemes that read `option`, for a message: "gpio:", "replay: and sim:".
std::string sources_reading(std::string_view option);

// Maps a spec string to a source: "pps:/dev/pps0", "replay:FILE", "sim:MODEL[,knob=value...]",
// "gpio:CHIP:LINE", "ptp:/dev/ptpN[,extts=K][,pin=P]". Throws core::UsageError for an unknown
// scheme, naming the known ones.
std::unique_ptr<PulseSource> open_source(std::string_view spec, const SourceOptions& options);

}  // namespace ppsbench::capture
