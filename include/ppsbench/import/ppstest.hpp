// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// pps-tools' `ppstest` output, as people paste it into READMEs and forums:
//
//   trying PPS source "/dev/pps0"
//   found PPS source "/dev/pps0"
//   ok, found 1 source(s), now start fetching data...
//   source 0 - assert 1418226003.000011287, sequence: 255 - clear  0.000000000, sequence: 0
//
// ppstest prints the latest assert and clear event after every fetch, so with both edges
// enabled each event appears twice; "clear 0.000000000, sequence: 0" means no clear event.
// The importer keeps each (edge, sequence) once, in time order (docs/import.md).

#include <istream>
#include <string>
#include <vector>

#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/import/capture_import.hpp"

namespace ppsbench::import {

struct PpstestImportOptions {
    bool strict = false;
};

// Reads one or more ppstest outputs in order. A pure function of the text.
class PpstestReader {
  public:
    // For read_files(): a problem of the file itself (trailing data after a .gz).
    chrony::SkippedLines& skipped() { return skipped_; }
    explicit PpstestReader(PpstestImportOptions options);
    void read(std::istream& in, const std::string& name);
    // Throws core::InputError when no event was found.
    CaptureImport finish();

  private:
    PpstestImportOptions options_;
    CaptureImport result_;
    chrony::SkippedLines skipped_;
    std::vector<std::string> files_;
    std::vector<core::Pulse> events_;
    std::size_t fetch_errors_ = 0;
    std::size_t chatter_ = 0;
    int source_ = -1;
    std::string device_;
};

CaptureImport import_ppstest(std::istream& in, const std::string& name,
                             const PpstestImportOptions& options);

}  // namespace ppsbench::import
