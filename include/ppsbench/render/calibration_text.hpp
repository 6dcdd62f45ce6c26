// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ppsbench/analysis/calibration.hpp"
#include "ppsbench/analysis/offset_check.hpp"

namespace ppsbench::render {

// What `ppsbench calibrate` prints about one path: the estimate and where it came from.
struct CalibrationReport {
    const analysis::CalibrationRun& run;
    const analysis::Calibration& calibration;
};

// chrony's refclock `offset` and ntpd's `time1` are in seconds: "0.000012034", "-0.000000500".
std::string seconds_text(double ns);

// The lines for people: the constant with its uncertainty, the chrony.conf and ntp.conf lines,
// or (refused) why no constant is given and what to do.
std::string calibration_text(const CalibrationReport& report, double confidence);

// The same for machines (docs/calibrate.md): figures only, refusal as a key, never prose.
nlohmann::json calibration_json(const CalibrationReport& report);

// The warning for a run that held cpu_dma_latency; empty when it held none.
std::string cpu_dma_latency_warning(const CalibrationReport& report);

// doctor --bias FILE: the measured constant, the clock's phase, and each configured offset
// line with its verdict and, when it does not match, the line to write instead.
std::string offset_check_text(const analysis::BiasEvidence& evidence,
                              const std::vector<analysis::OffsetVerdict>& verdicts);
nlohmann::json offset_check_json(const analysis::BiasEvidence& evidence,
                                 const std::vector<analysis::OffsetVerdict>& verdicts);

}  // namespace ppsbench::render
