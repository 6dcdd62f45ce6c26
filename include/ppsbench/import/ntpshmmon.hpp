// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// gpsd's `ntpshmmon` output: one line per new sample in an NTP shared-memory segment.
//
//   ntpshmmon version 3.18
//   #      Name   Seen@                Clock                Real               L Prec
//   sample NTP3 1424926256.443060517 1424926255.995430821 1424926256.000000000 0 -20
//
// gpsd writes each device's time in one segment and its PPS in the next (NTP0 and NTP1 as
// root, NTP2 and NTP3 otherwise): the PPS segment's `Clock` is the local (CLOCK_REALTIME) stamp
// of the true second `Real`, so each of its samples is one pulse stamped `Clock`.

#include <istream>
#include <map>
#include <string>
#include <vector>

#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/import/capture_import.hpp"

namespace ppsbench::import {

namespace detail {
struct LoggedEdge;
}

struct NtpshmmonImportOptions {
    // The segment to import (NTP1); empty: the output's only odd-numbered (PPS) segment.
    std::string unit;
    bool strict = false;
};

class NtpshmmonReader {
  public:
    // For read_files(): a problem of the file itself (trailing data after a .gz).
    chrony::SkippedLines& skipped() { return skipped_; }
    explicit NtpshmmonReader(NtpshmmonImportOptions options);
    ~NtpshmmonReader();
    NtpshmmonReader(const NtpshmmonReader&) = delete;
    NtpshmmonReader& operator=(const NtpshmmonReader&) = delete;
    void read(std::istream& in, const std::string& name);
    // Throws core::InputError when the segment has no samples, or there are several PPS
    // segments and no --unit (listing every segment with its sample count).
    CaptureImport finish();

  private:
    void read_sample(const std::vector<std::string_view>& f, const std::string& name,
                     std::size_t n);
    NtpshmmonImportOptions options_;
    chrony::SkippedLines skipped_;
    std::vector<std::string> files_;
    std::vector<detail::LoggedEdge> edges_;
    std::map<std::string, std::size_t> units_;
    // Of each unit's samples, those shaped like a PPS (see read_sample()): named in a refusal,
    // since an old gpsd put its PPS in an even segment (NTP2) where this reader does not look.
    std::map<std::string, std::size_t> pps_shaped_;
    std::size_t lines_ = 0;
};

CaptureImport import_ntpshmmon(std::istream& in, const std::string& name,
                               const NtpshmmonImportOptions& options);

}  // namespace ppsbench::import
