// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What an importer that produces a capture file (ppstest, ntp-peerstats) hands back: the pulses,
// the capture's metadata, and an account of every line it read.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::import {

// Holes in an imported pulse train, per edge, by the rule `report` uses
// (stats::classify_interval): an empty period slot the kernel counted an event for is a missed
// pulse; a sequence skip with no empty slot is an event the kernel counted that never reached
// the log (`unseen`), not a missed pulse; a time jump with contiguous numbers is a clock step.
struct GapCount {
    std::uint64_t missed_pulses = 0;
    std::uint64_t unseen_events = 0;
};

GapCount count_gaps(std::span<const core::Pulse> pulses, std::int64_t period_ns);

struct CaptureImport {
    // In time order, each edge once.
    std::vector<core::Pulse> pulses;
    nlohmann::json metadata;
    std::size_t lines = 0;
    std::size_t duplicates = 0;  // the same event printed again (ppstest prints per fetch)
    GapCount gaps;
    // Lines that are neither data nor the program's own chatter (banners, fetch errors).
    std::size_t problem_count = 0;
    std::vector<chrony::LogProblem> problems;
    // One line each, for the user: what was counted besides pulses.
    std::vector<std::string> notes;
    // One line each: the program's own figures contradict the import (printed as warnings;
    // the reader refuses them instead under --strict).
    std::vector<std::string> warnings;
};

}  // namespace ppsbench::import
