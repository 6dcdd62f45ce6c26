// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ppsbench/analysis/bias.hpp"
#include "ppsbench/stats/interval.hpp"

namespace ppsbench::analysis {

// How `calibrate` estimates the constant (docs/calibrate.md).
struct CalibrationSettings {
    // Samples chrony's refclock filter combines per poll: min(filter, 2^(poll − dpoll)); 16
    // with a `refclock PPS` line's defaults (poll 4, dpoll 0, filter 64).
    std::size_t filter_samples = 16;
    // Fewer filter outputs than this and the constant's interval means little.
    std::size_t min_polls = 8;
    // The quarters of the run may differ by this much (largest − smallest) before the lateness
    // counts as drifting (when the difference is also statistically supported). The Pi 5's wandered
    // by ~0.5 µs between sessions.
    double max_drift_ns = 500.0;
    double confidence = 0.95;
};

// Why one constant would be meaningless.
enum class CalibrationRefusal {
    none,
    too_few_pulses,  // fewer than min_polls × filter_samples paired edges
    drifting,        // the quarters' constants differ beyond max_drift_ns, and beyond noise
    bimodal,         // two groups of lateness, each a tenth or more of the edges, far apart
};

struct Calibration {
    std::string reference;
    std::size_t pairs = 0;
    std::size_t polls = 0;  // filter outputs the constant averages
    std::size_t filter_samples = 0;
    // The lateness as chrony's filter sees it: per poll, the samples around the median (all but
    // the lowest and highest fifth, at least one each side) averaged; then the polls' mean. It
    // is chrony's refclock `offset` (and ntpd's `time1`) in ns, the sign already chrony's.
    double constant_ns = 0;
    // ± the polls' Student-t interval half-width (at least half the quantisation step) plus the
    // reference's stated uncertainty.
    double uncertainty_ns = 0;
    double mean_ns = 0;        // of the raw lateness, for comparison
    double median_ns = 0;      // likewise
    double first_half_ns = 0;  // the constant from each half of the run
    double second_half_ns = 0;
    // The constant from each quarter of the polls: what the drift check compares.
    std::vector<double> quarters_ns;
    // The smallest step between distinct lateness values (a PHC's tick); 0 for one value.
    double quantisation_ns = 0;
    // Of the best split of the lateness into a low and a high group: Ashman's D (separation
    // of their means in units of their spread) and the smaller group's share.
    double separation = 0;
    double minor_share = 0;
    std::int64_t reference_uncertainty_ns = -1;
    CalibrationRefusal refusal = CalibrationRefusal::none;
};

// chrony's refclock filter over one poll's samples (refclock.c / samplefilt.c, combine ratio
// 0.6): sorted, `from` = clamp(⌊n·0.2⌋, 1, (n−1)/2) dropped at each end for n > 2, the rest
// averaged. `samples` is reordered.
double chrony_filtered_offset(std::span<double> samples);

Calibration calibrate(const Lateness& lateness, const CalibrationSettings& settings = {});

// The capture files of one path, paired with their reference, for `calibrate`.
struct CalibrationRun {
    std::vector<std::string> inputs;
    std::string label;
    bool simulated = false;
    // The PPS device the path read ("/dev/pps0"); empty when it was not one (a simulation).
    std::string pps_device;
    // Held in /dev/cpu_dma_latency during a capture (µs; the largest hold of the files):
    // production may not hold it.
    std::optional<std::uint32_t> cpu_dma_latency_us;
    Lateness lateness;  // the files' edges in the order given
};

// Reads each file and its reference. Throws core::InputError (exit 2) naming the file when one
// has no reference (naming the other path's file when it is the reference itself), when the
// files name different references, or when one cannot be read.
CalibrationRun load_calibration_run(const std::vector<std::string>& paths, core::Edge edge);

}  // namespace ppsbench::analysis
