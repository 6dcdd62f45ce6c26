// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Importing chronyd's own log files (`log refclocks tracking` in chrony.conf), so months of
// logs people already have can be analysed like a capture.
//
// Malformed lines never crash an import: by default each is reported as FILE:LINE and skipped;
// with `strict` the first one throws core::InputError with the same text.

#include <cstddef>
#include <cstdint>
#include <istream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/chrony/report.hpp"
#include "ppsbench/core/pulse.hpp"

namespace ppsbench::chrony {
namespace detail {
struct RmsAtEntry;  // private: src/chrony/tracking_report.hpp
}

// One skipped line: "refclocks.log:17: field 7 (raw offset) is 'x', not a number".
struct LogProblem {
    std::string file;
    std::size_t line = 0;
    std::string message;

    std::string to_string() const;
};

// At most this many problems are kept verbatim; problem_count counts them all.
inline constexpr std::size_t max_kept_problems = 100;

// The skipped lines of one import, over all its files: each counted, the first
// max_kept_problems kept verbatim; with `strict` the first throws core::InputError instead.
// One tally per reader, so every importer counts and keeps them by the same rule.
class SkippedLines {
  public:
    explicit SkippedLines(bool strict) : strict_(strict) {}
    void add(std::string_view file, std::size_t line, std::string message);
    std::size_t count() const { return count_; }
    std::vector<LogProblem> take() { return std::move(kept_); }
    // For a refusal that would otherwise hide why (no pulses, no peer): "" when no line was
    // skipped, else "; N lines were skipped, e.g. FILE:LINE: why; FILE:LINE: why" (the first
    // `shown`), so the error names the lines without --strict.
    std::string summary(std::size_t shown = 3) const;

  private:
    bool strict_;
    std::size_t count_ = 0;
    std::vector<LogProblem> kept_;
};

// One offset sample of a log, as the readers of refclocks.log and ntpd's peerstats keep it
// until finish() knows which refclock or peer to import.
struct OffsetSample {
    std::size_t file = 0;  // index into the reader's files, in the order read
    std::size_t line = 0;
    std::string source;  // the refclock's refid, the peer's address
    std::int64_t time_ns = 0;
    // Positive when the local clock is behind (chrony's "local clock error", ntpd's offset).
    std::int64_t offset_ns = 0;
};

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
    // One line each, for the user (rotated files given newest first, read oldest first).
    std::vector<std::string> notes;
};

// Reads one or more refclocks.log files in order (rotated logs oldest first) and rebuilds the
// pulses of one refclock. A pure function of the text: no file system access.
class RefclocksLogReader {
  public:
    // For read_files(): a problem of the file itself (trailing data after a .gz).
    SkippedLines& skipped() { return skipped_; }
    explicit RefclocksLogReader(RefclocksImportOptions options);
    // `name` is used in messages and metadata (the file's path).
    void read(std::istream& in, const std::string& name);
    // Throws core::InputError when there is no PPS refclock to import (naming every refid in
    // the files, its sample count and whether it is a PPS refclock) or several and no refid.
    RefclocksImport finish();

  private:
    struct RefidCount {
        std::size_t samples = 0;  // raw samples (DP not '-')
        std::size_t pps = 0;      // of which with P = 1
    };
    RefclocksImportOptions options_;
    RefclocksImport result_;
    std::vector<std::string> files_;
    std::vector<OffsetSample> samples_;  // PPS samples, all refids
    std::map<std::string, RefidCount> refids_;
    SkippedLines skipped_;
};

RefclocksImport import_refclocks_log(std::istream& in, const std::string& name,
                                     const RefclocksImportOptions& options);
// Throws core::InputError when the file cannot be opened.
RefclocksImport import_refclocks_log(const std::string& path,
                                     const RefclocksImportOptions& options);

// One tracking.log line (chrony 4.x: 14 columns), offsets in nanoseconds as doubles (the log
// prints four significant digits; the doubles hold them exactly to 15 significant digits).
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
    // docs/chrony.md) from the start of this chronyd process; nullopt before the process's
    // first synchronised update.
    std::optional<double> rms_offset_ns;
    // Which chronyd process wrote the line: 1 for the first in the files, +1 at each restart.
    unsigned process = 1;
};

// Where a new chronyd process was found (the line of its first entry), and by what.
struct ChronydStart {
    std::string file;
    std::size_t line = 0;
    std::int64_t time_ns = 0;
    // "start-up line" (0.0.0.0, stratum 0, leap ?, offset 0 and root delay 1.000e+00: what
    // chronyd logs first; its unsynchronised lines within a process keep the last reference's
    // root delay), and/or
    // "banner after N entries, out of its M-entry cycle" (chronyd counts banners per process).
    std::string evidence;
};

struct TrackingImportOptions {
    bool strict = false;
    // chrony.conf's `logbanner` when known; unset: from the files (a gap between banners seen
    // at least twice), else chrony's default, 32.
    std::optional<std::size_t> logbanner;
};

struct TrackingImport {
    std::vector<TrackingLogEntry> entries;
    std::vector<ChronydStart> restarts;
    std::size_t lines = 0;
    std::size_t banners = 0;
    std::size_t repeated_banners = 0;  // a banner straight after another (no entry between)
    // Entries between chronyd's banners (its `logbanner`) that the restart rule assumed.
    std::size_t banner_period = 32;
    std::size_t problem_count = 0;
    std::vector<LogProblem> problems;
    // One line each, for the user (rotated files given newest first, read oldest first; what a
    // pasted `chronyc tracking` report was cross-checked against).
    std::vector<std::string> notes;
    // A pasted `chronyc tracking` report that contradicts the log (with `strict`: thrown as
    // core::InputError instead), one line each.
    std::vector<std::string> warnings;
    // Two files whose times overlap (one given twice, the logs of two chronyd), read as given:
    // "b starts at T, before a ends at T2"; empty when none do.
    std::string overlap;
};

// A `chronyc tracking` report pasted beside tracking.log (chrony's client.c,
// process_cmd_tracking()), with the figures the cross-check needs.
struct ChronycTrackingReport {
    std::string file;
    std::size_t line = 0;             // its first line, "Reference ID    : ..."
    std::string reference_id;         // "50505300 (PPS)"; 7F7F0101: chronyd's local reference
    std::int64_t ref_time_ns = 0;     // "Ref time (UTC)", whole seconds (0: never synchronised)
    std::int64_t last_offset_ns = 0;  // "Last offset", printed to 1 ns
    std::int64_t rms_offset_ns = 0;   // "RMS offset", printed to 1 ns
    std::string leap_status;          // "Normal", "Not synchronised", ...
};

// Reads one or more tracking.log files, then rebuilds the RMS offset per chronyd process. Whole
// files given out of time order (rotated logs named newest first) are read oldest first, with a
// note, as the refclocks.log and peerstats readers do (detail::file_ranks_by_time()). A pure
// function of the text: no file system access.
class TrackingLogReader {
  public:
    // For read_files(): a problem of the file itself (trailing data after a .gz).
    SkippedLines& skipped() { return skipped_; }
    explicit TrackingLogReader(TrackingImportOptions options);
    // `name` is used in messages (the file's path).
    void read(std::istream& in, const std::string& name);
    TrackingImport finish();

  private:
    struct Banner {
        std::size_t file = 0;
        std::size_t line = 0;
        std::size_t entries_before = 0;  // entries read before it, in all files
    };
    TrackingImportOptions options_;
    TrackingImport result_;
    std::vector<std::size_t> entry_file_;  // per entry: index into files_
    std::vector<std::size_t> entry_line_;
    std::vector<bool> entry_after_banner_;  // per entry: straight after a banner block
    std::vector<std::string> files_;
    std::vector<Banner> banners_;
    SkippedLines skipped_;
    // `chronyc tracking` reports: the lines of one being read (label index, line number, text),
    // and those read whole.
    struct ReportLine {
        std::size_t label = 0;
        std::size_t line = 0;
        std::string text;
    };
    std::vector<ReportLine> report_lines_;
    std::vector<ChronycTrackingReport> reports_;

    // A line of a `chronyc tracking` report (true: taken, it is no entry); any other line ends
    // the report being read.
    bool take_report_line(const std::string& line, std::size_t n, const std::string& name);
    // The report being read ends (at a line not its own, or at the end of the file): a whole
    // one is kept, a part of one is a skipped line naming what it lacks.
    void end_report(const std::string& name);
    // The RMS offset per chronyd process (`starts`: the index of each new process's first
    // entry), and what is known of it per entry, for the cross-check.
    std::vector<detail::RmsAtEntry> recompute_rms(TrackingImport& result,
                                                  const std::map<std::size_t, std::string>& starts);
    // Each report against the update it came from: notes, warnings, or with `strict` the first
    // warning thrown.
    void cross_check(TrackingImport& result, const std::vector<detail::RmsAtEntry>& rms_at);

    // Puts whole files in time order when they were given out of it; says so in `notes`, and
    // names two files that overlap in `overlap`.
    void order_files(std::vector<std::string>& notes, std::string& overlap);
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
    // Updates since the average started moving (the one that started it not counted): after m
    // of them an unknown starting mean square weighs 0.9^m in the running one.
    std::size_t moving_updates() const { return moving_updates_; }
    // Whether one of the quick start's "is this square larger?" decisions was within tracking.log's
    // rounding (four significant digits): chronyd's exact offsets may have decided otherwise.
    bool close_call() const { return close_call_; }

  private:
    double mean_square_ = 0.0;
    bool moving_ = false;
    std::size_t moving_updates_ = 0;
    bool close_call_ = false;
};

}  // namespace ppsbench::chrony
