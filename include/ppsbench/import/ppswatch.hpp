// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// pps-tools' `ppswatch` output, as people paste it:
//
//   trying PPS source "/dev/pps1"
//   found PPS source "/dev/pps1"
//   timestamp: 1664427237, sequence: 163286, offset:  -5414
//   ...
//   Total number of PPS signals: 26
//   Maximum divergence: 5414
//   Mean value: -189.423
//   Standard deviation: 3460.59
//
// ppswatch rounds each event to the nearest second and prints the rest as `offset` (ns), so the
// pulse is `timestamp + offset`. Its closing figures are kept beside ours: its mean is the
// offsets' mean, its standard deviation divides by n where the report's σ divides by n − 1
// (docs/import.md).

#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/import/capture_import.hpp"

namespace ppsbench::import {

struct PpswatchImportOptions {
    // "assert" or "clear"; empty: from a pasted `ppswatch -a` command line, else ppswatch's
    // default, clear.
    std::string edge;
    bool strict = false;
};

// ppswatch's closing figures, as printed.
struct PpswatchFigures {
    std::optional<std::size_t> total;
    std::optional<std::size_t> overflows;  // printed only with --margin: the events it printed
    std::optional<std::int64_t> max_divergence_ns;
    std::optional<double> mean_ns;
    std::optional<double> sd_ns;  // divides by n
};

// ppswatch's own statistics (ppswatch.c fetch_source: Welford's running mean and M2 over every
// fetched event's offset, and the largest |offset|), redone on the event lines as they are read,
// in the same order and double arithmetic, so its closing figures can be checked against them.
struct PpswatchRunning {
    std::size_t count = 0;
    double mean = 0.0;
    double m2 = 0.0;
    std::int64_t max_divergence_ns = 0;
    void add(std::int64_t offset_ns);
};

// The closing figures of one ppswatch run against the event lines printed before them: notes
// when they agree or cannot be compared, a warning when they do not. `where` is "FILE:LINE" of
// the summary.
struct PpswatchCheck {
    bool agrees = false;
    bool judged = false;
    std::string text;
};
PpswatchCheck check_ppswatch_figures(const PpswatchFigures& printed, const PpswatchRunning& lines,
                                     const std::string& where);

class PpswatchReader {
  public:
    // For read_files(): a problem of the file itself (trailing data after a .gz).
    chrony::SkippedLines& skipped() { return skipped_; }
    explicit PpswatchReader(PpswatchImportOptions options);
    void read(std::istream& in, const std::string& name);
    // Throws core::InputError when no `timestamp:` line was read.
    CaptureImport finish();

  private:
    // False when the line is neither an event nor ppswatch's own text.
    bool read_line(std::string_view line);
    // After a summary's last line: judges it against the events since the previous one.
    void close_summary();
    std::string where() const;  // "FILE:LINE" of the line being read
    PpswatchImportOptions options_;
    chrony::SkippedLines skipped_;
    std::vector<std::string> files_;
    std::vector<core::Pulse> events_;
    PpswatchFigures figures_;  // the summary being read, then the last one read
    PpswatchRunning running_;  // the events since the last summary (or the file's start)
    std::string summary_at_;   // "FILE:LINE" of the summary's first line
    std::size_t line_ = 0;     // the line being read, in files_.back()
    std::vector<std::string> check_notes_;
    std::vector<std::string> check_warnings_;
    std::size_t summaries_agreed_ = 0;
    std::size_t summaries_contradicted_ = 0;
    std::size_t summaries_not_judged_ = 0;
    std::string device_;
    std::string edge_from_command_;
    std::size_t lines_ = 0;
};

CaptureImport import_ppswatch(std::istream& in, const std::string& name,
                              const PpswatchImportOptions& options);

}  // namespace ppsbench::import
