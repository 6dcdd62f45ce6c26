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
    std::optional<double> mean_ns;
    std::optional<double> sd_ns;  // divides by n
};

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
    PpswatchImportOptions options_;
    chrony::SkippedLines skipped_;
    std::vector<std::string> files_;
    std::vector<core::Pulse> events_;
    PpswatchFigures figures_;
    std::string device_;
    std::string edge_from_command_;
    std::size_t lines_ = 0;
};

CaptureImport import_ppswatch(std::istream& in, const std::string& name,
                              const PpswatchImportOptions& options);

}  // namespace ppsbench::import
