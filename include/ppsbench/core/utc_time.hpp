// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ppsbench::core {

// How many digits of a second a UTC time shows. Capture files keep the precision each writer has
// always used (a run's start to the nanosecond, an import's to the second), so both exist.
enum class UtcPrecision : std::uint8_t { seconds, nanoseconds };

// ISO 8601 UTC: "2026-01-01T00:00:00Z", or "2026-01-01T00:00:00.000000123Z" with nanoseconds.
// `ns` counts from the Unix epoch (CLOCK_REALTIME).
std::string format_utc(std::int64_t ns, UtcPrecision precision);

// The compact form for file names: "20260101T000000Z".
std::string format_utc_compact(std::int64_t ns);

// The inverse of format_utc (either precision); nullopt for anything else.
std::optional<std::int64_t> parse_utc(std::string_view text);

}  // namespace ppsbench::core
