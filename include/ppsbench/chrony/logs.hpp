#pragma once

// Importing chronyd's own log files (`log refclocks tracking` in chrony.conf), so months of
// logs people already have can be analysed like a capture.
//
// Malformed lines never crash an import: by default each is reported as FILE:LINE and skipped;
// with `strict` the first one throws core::InputError with the same text.

#include <cstddef>
#include <cstdint>
#include <istream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ppsbench/chrony/report.hpp"
#include "ppsbench/core/pulse.hpp"

namespace ppsbench::chrony {

// One skipped line: "refclocks.log:17: field 7 (raw offset) is 'x', not a number".
struct LogProblem {
    std::string file;
    std::size_t line = 0;
    std::string message;

    std::string to_string() const;
};

// At most this many problems are kept verbatim; problem_count counts them all.
inline constexpr std::size_t max_kept_problems = 100;

// Which offset column of refclocks.log becomes the pulse's phase offset.
enum class RefclockOffset : std::uint8_t {
    // Column 7, "local clock error measured by the driver": relative to the system clock, i.e.
    // exactly what the kernel's PPS timestamp said. The default, and what `ppsbench run` on the
    // same device would have measured.
    raw,
    // Column 8, "with applied corrections": relative to chronyd's NTP clock (the remaining slew
    // taken out).
    cooked,
};

struct RefclocksImportOptions {
    // Reference ID to import. Empty: the log's only refid with PPS samples (an error when it
    // has several; the message lists them).
    std::string refid;
    bool strict = false;
    RefclockOffset offset = RefclockOffset::raw;
};

struct RefclocksImport {
    std::string refid;
    // One assert-edge pulse per PPS sample, in file order. See docs/chrony.md: the timestamp is
    // the whole UTC second nearest the logged time minus the logged offset, so
    // stats::phase_offset_ns(timestamp) == -offset (to the nanosecond), and sequence counts
    // seconds from the first pulse, so a second with no sample is a sequence gap (missed pulse).
    std::vector<core::Pulse> pulses;
    // Capture-file metadata (store::RunMeta with "import", as JSON: store::to_json).
    nlohmann::json metadata;

    std::size_t lines = 0;           // all lines read, banners included
    std::size_t filtered_lines = 0;  // chrony's filtered samples ('-' lines): not pulses
    std::size_t non_pps_lines = 0;   // raw samples without the PPS flag (NMEA, SHM time)
    std::size_t other_refid_lines = 0;
    std::size_t problem_count = 0;
    std::vector<LogProblem> problems;
};

// `name` is used in messages and metadata (the file's path).
RefclocksImport import_refclocks_log(std::istream& in, const std::string& name,
                                     const RefclocksImportOptions& options);
// Throws core::InputError when the file cannot be opened.
RefclocksImport import_refclocks_log(const std::string& path,
                                     const RefclocksImportOptions& options);

// One tracking.log line (chrony 4.x: 14 columns), offsets in nanoseconds as doubles (the log
// prints four significant digits).
struct TrackingLogEntry {
    std::int64_t time_ns = 0;  // UTC, whole seconds
    std::string reference;     // IP address or refclock refid; "0.0.0.0" when unsynchronised
    int stratum = 0;
    double frequency_ppm = 0.0;
    double frequency_error_ppm = 0.0;  // chrony's skew
    // Estimated local offset at the epoch; positive: the clock is fast of true time.
    double offset_ns = 0.0;
    LeapStatus leap = LeapStatus::not_synchronised;
    int combined_sources = 0;
    double offset_sd_ns = 0.0;
    double remaining_correction_ns = 0.0;
    double root_delay_ns = 0.0;
    double root_dispersion_ns = 0.0;
    double max_error_ns = 0.0;
    // chrony's "RMS offset" after this update, recomputed the way chronyd does (see
    // docs/chrony.md) from the start of the file; nullopt before the first synchronised update.
    std::optional<double> rms_offset_ns;
};

struct TrackingImportOptions {
    bool strict = false;
};

struct TrackingImport {
    std::vector<TrackingLogEntry> entries;
    std::size_t lines = 0;
    std::size_t problem_count = 0;
    std::vector<LogProblem> problems;
};

TrackingImport import_tracking_log(std::istream& in, const std::string& name,
                                   const TrackingImportOptions& options);
TrackingImport import_tracking_log(const std::string& path, const TrackingImportOptions& options);

// chrony's RMS offset recurrence, exposed for tests: the first squared offset is taken as is
// until one exceeds the running value, then each update moves the mean square 10% of the way
// to the new squared offset.
class RmsOffsetTracker {
  public:
    void add(double offset);
    double rms() const;

  private:
    double mean_square_ = 0.0;
    bool moving_ = false;
};

}  // namespace ppsbench::chrony
