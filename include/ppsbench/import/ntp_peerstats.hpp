// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// ntpd's and NTPsec's `peerstats` (`statistics peerstats` in ntp.conf), one line per clock
// filter update of each peer:
//
//   59945 3600.125 127.127.22.0 9714 -0.000000123 0.000000000 0.000000954 0.000000110
//   MJD   seconds  peer address status offset     delay       dispersion  jitter
//
// The PPS peer is ntpd's ATOM driver, 127.127.22.u, which NTPsec's `refclock pps` logs under
// the same address (classic builds) or as PPS(u). Each line becomes one pulse at the whole UTC
// second before its time (ntpd logs the poll's result after the edge, at xx:02.877 for the edge
// at xx:02), stamped `second - offset`, so the report's phase offset is ntpd's offset
// (docs/import.md).

#include <istream>
#include <map>
#include <string>
#include <vector>

#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/import/capture_import.hpp"
#include "ppsbench/import/ntp_loopstats_check.hpp"

namespace ppsbench::import {

struct PeerstatsImportOptions {
    // The peer to import; empty: the one 127.127.22.u or PPS(u) peer in the files.
    std::string peer;
    // ntpd's loopstats of the same time, to cross-check the offsets (ntp_loopstats_check.hpp).
    std::vector<std::string> loopstats{};
    bool strict = false;
};

class PeerstatsReader {
  public:
    // For read_files(): a problem of the file itself (trailing data after a .gz).
    chrony::SkippedLines& skipped() { return skipped_; }
    explicit PeerstatsReader(PeerstatsImportOptions options);
    void read(std::istream& in, const std::string& name);
    // Throws core::InputError when the peer is not there (listing every peer with its line
    // count), or when there are several PPS peers and no --peer.
    CaptureImport finish();

  private:
    PeerstatsImportOptions options_;
    CaptureImport result_;
    chrony::SkippedLines skipped_;
    std::vector<std::string> files_;
    std::vector<chrony::OffsetSample> samples_;  // all peers
    std::map<std::string, std::size_t> peers_;
    std::vector<PeerUpdate> updates_;  // all peers, for --loopstats
};

CaptureImport import_ntp_peerstats(std::istream& in, const std::string& name,
                                   const PeerstatsImportOptions& options);

}  // namespace ppsbench::import
