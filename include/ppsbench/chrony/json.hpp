// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// JSON for chrony values: a ChronySample is one `# chrony {json}` line of a capture file, a
// ChronySummary is the report's "chrony" object. Durations are integer nanoseconds with an
// `_ns` suffix, exactly as chronyc printed them; absent values are null.

#include <nlohmann/json.hpp>

#include "ppsbench/chrony/report.hpp"
#include "ppsbench/chrony/sampler.hpp"
#include "ppsbench/chrony/summary.hpp"

namespace ppsbench::chrony {

// Version of the sample object (`"v"`), bumped when a field changes meaning.
inline constexpr int sample_json_version = 1;

void to_json(nlohmann::json& j, const TrackingSample& t);
void from_json(const nlohmann::json& j, TrackingSample& t);
void to_json(nlohmann::json& j, const SourceRow& r);
void from_json(const nlohmann::json& j, SourceRow& r);
void to_json(nlohmann::json& j, const SourceStatsRow& r);
void from_json(const nlohmann::json& j, SourceStatsRow& r);

// Throws core::InputError when a field is missing or has the wrong type (a capture file written
// by something else), naming the field.
void to_json(nlohmann::json& j, const ChronySample& s);
void from_json(const nlohmann::json& j, ChronySample& s);

void to_json(nlohmann::json& j, const ChronySummary& s);

}  // namespace ppsbench::chrony
