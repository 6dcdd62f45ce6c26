// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// `report/compare/gate --chrony-log tracking.log...`: chrony's figures of a capture rebuilt from
// the tracking.log of the same hours, for captures that sampled no chronyd (or whose samples
// are not wanted), so that chrony's RMS offset stands beside the raw σ of each run.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/chrony/summary.hpp"
#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::analysis {

struct ChronyLog {
    std::vector<std::string> paths;   // as given, rotated files oldest first
    chrony::TrackingImport tracking;  // restarts found and RMS offset rebuilt per process
};

// Reads the files in order as one log (chrony/logs.hpp: restarts respected, banners counted per
// file). Throws core::InputError for a file that cannot be read, that is gzip-compressed, or
// when no file holds a tracking.log entry (naming the skipped lines).
std::shared_ptr<const ChronyLog> read_chrony_log(const std::vector<std::string>& paths);

// The run's chrony view from the log's rows within the capture's span (its first to its last
// pulse); nullopt, with a warning, when no row falls within it. It replaces the capture's own
// `# chrony` samples, with a warning saying so. Throws
// core::InputError naming both spans when they do not overlap, and when the capture's clock is
// not UTC (a monotonic or TAI capture cannot be aligned with chronyd's UTC log).
std::optional<chrony::ChronySummary> chrony_from_log(const ChronyLog& log,
                                                     const store::CaptureFile& file,
                                                     std::vector<std::string>& warnings);

}  // namespace ppsbench::analysis
