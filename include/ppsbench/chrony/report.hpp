// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// chronyc's CSV reports (`chronyc -c tracking|sources|sourcestats`) as value types.
//
// `chronyc -c` is chrony's machine interface: no header, one record per line, seconds printed
// with nine decimals. Those are kept here as integer nanoseconds, exactly as printed, so a value
// ppsbench reports can be compared with chronyc's output for equality; ppm figures stay doubles.
// Field orders are those of chrony 4.x (checked against Debian's chrony 4.3).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ppsbench::chrony {

enum class LeapStatus : std::uint8_t { normal, insert_second, delete_second, not_synchronised };

std::string_view to_string(LeapStatus leap);
// Accepts chronyc's spellings: "Normal", "Insert second", "Delete second", "Not synchronised".
std::optional<LeapStatus> parse_leap_status(std::string_view text);

// Reference IDs chrony reports when it is not following a real source.
inline constexpr std::uint32_t refid_unsynchronised = 0x00000000;
inline constexpr std::uint32_t refid_local = 0x7F7F0101;  // `local` directive in effect

// `chronyc -c tracking`: 14 fields.
struct TrackingSample {
    std::uint32_t ref_id = 0;  // "50505300" for refid PPS
    std::string ref_name;      // name or IP of the reference ("PPS"); empty when none
    int stratum = 0;
    std::int64_t ref_time_ns = 0;  // UTC, ns since the epoch, of the last reference update
    // "System time": chronyd's remaining correction of the system clock; chronyc -c prints it
    // signed, positive meaning the system clock is slow of chronyd's NTP clock.
    std::int64_t system_time_offset_ns = 0;
    std::int64_t last_offset_ns = 0;  // offset at the last clock update
    // chrony's long-term average of the offset: sqrt of an exponentially weighted mean of the
    // squared update offsets (weight 0.1 per update), not a sample standard deviation.
    std::int64_t rms_offset_ns = 0;
    double frequency_ppm = 0.0;
    double residual_frequency_ppm = 0.0;
    double skew_ppm = 0.0;
    std::int64_t root_delay_ns = 0;
    std::int64_t root_dispersion_ns = 0;
    double update_interval_s = 0.0;
    LeapStatus leap = LeapStatus::not_synchronised;

    // The reference ID as chrony prints it: 8 upper-case hex digits.
    std::string ref_id_hex() const;
    // The reference ID as ASCII when it is one (refclocks: "PPS"), else empty.
    std::string ref_id_text() const;
    // False when chronyd follows no source: leap status "Not synchronised", reference ID 0, or
    // the `local` reference (7F7F0101), which keeps clients happy but measures nothing.
    bool synchronised() const;

    friend bool operator==(const TrackingSample&, const TrackingSample&) = default;
};

enum class SourceMode : std::uint8_t { server, peer, refclock };
enum class SourceState : std::uint8_t {
    selected,      // *
    combined,      // +
    not_combined,  // -
    falseticker,   // x
    jittery,       // ~
    unusable,      // ?
};
std::string_view to_string(SourceMode mode);
std::string_view to_string(SourceState state);
char to_symbol(SourceMode mode);
char to_symbol(SourceState state);

// `chronyc -c sources`: 10 fields per line.
struct SourceRow {
    SourceMode mode = SourceMode::server;
    SourceState state = SourceState::unusable;
    std::string name;  // refid for refclocks, IP address for NTP sources (chronyc -n)
    int stratum = 0;
    int poll = 0;   // log2 seconds
    int reach = 0;  // the 8-bit reachability register (chronyc prints it in octal)
    // Seconds since the last good sample; nullopt when there has been none.
    std::optional<std::uint32_t> last_rx_s;
    std::int64_t adjusted_offset_ns = 0;  // last sample, adjusted for later slews
    std::int64_t measured_offset_ns = 0;  // last sample as measured
    std::int64_t error_ns = 0;            // the "+/-" margin

    friend bool operator==(const SourceRow&, const SourceRow&) = default;
};

// `chronyc -c sourcestats`: 8 fields per line.
struct SourceStatsRow {
    std::string name;
    int samples = 0;  // NP
    int runs = 0;     // NR
    std::int64_t span_s = 0;
    double frequency_ppm = 0.0;
    double frequency_skew_ppm = 0.0;
    std::int64_t offset_ns = 0;
    std::int64_t std_dev_ns = 0;  // chrony's estimated sample standard deviation

    friend bool operator==(const SourceStatsRow&, const SourceStatsRow&) = default;
};

// Strict parsers: every line must have the right number of fields and every number must parse
// in full. A violation throws core::InputError naming the report, line, field and value, e.g.
// "chronyc -c tracking: field 7 (RMS offset) is 'abc', not a number".
TrackingSample parse_tracking(std::string_view csv);
std::vector<SourceRow> parse_sources(std::string_view csv);
std::vector<SourceStatsRow> parse_sourcestats(std::string_view csv);

// "0.000001138" -> 1138. Exactly nine or fewer decimals, optional sign, no exponent; nullopt
// otherwise. Exposed for the log importers and tests.
std::optional<std::int64_t> parse_seconds_ns(std::string_view text);

}  // namespace ppsbench::chrony
