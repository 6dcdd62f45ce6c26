// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Shared by chrony's refclocks.log reader and import's peerstats reader (a public header so that
// import reaches it through the module rule, docs/modules.txt): logs that record the
// clock's offset at each sample (chrony's refclocks.log, ntpd's peerstats) become a pulse train
// by one rule, written once here.

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/core/pulse.hpp"

namespace ppsbench::chrony::detail {

struct SamplePulses {
    std::vector<core::Pulse> pulses;
    std::size_t other_source_lines = 0;  // samples of other refids or peers
    // When the files were given out of time order (rotated logs newest first) and their spans
    // do not overlap, they are read oldest first: this says so ("read oldest first: a, b"), else
    // it is empty. Files whose spans overlap are read as given, their lines skipped and named.
    std::string reordered;
};

// The edge a sample labels: the whole second nearest its time (chrony's refclocks.log: the
// sample's own time), or the whole second before it (ntpd's peerstats: the line is logged at
// ntpd's system time after the poll, xx:02.877 for the edge at xx:02.000).
enum class SampleSecond : std::uint8_t { nearest, before };

// One assert-edge pulse per sample of `source`, in file order, stamped at the whole UTC second
// the sample labels (`rule`) minus its offset (the pulse came that much before the top of the
// second, so stats::phase_offset_ns gives back -offset), numbered by seconds from the first
// pulse, so a second without a sample is a sequence gap. A sample whose second is not after the
// previous pulse's is skipped: "time T is not after the previous `previous` (T0)", where
// `previous` names what the log calls a sample ("pulse's", "line's").
SamplePulses pulses_from_samples(std::span<const OffsetSample> samples, std::string_view source,
                                 std::span<const std::string> files, std::string_view previous,
                                 SkippedLines& skipped, SampleSecond rule = SampleSecond::nearest);

// The files as messages name them: the one path, or "N files".
std::string files_label(std::span<const std::string> files);

// The files as the capture's `import` record lists them: the one path, or all of them.
nlohmann::json files_json(std::span<const std::string> files);

}  // namespace ppsbench::chrony::detail
