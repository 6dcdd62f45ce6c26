// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ppsbench/stats/interval.hpp"
#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::analysis {

// How late a PPS path timestamps each edge, measured against a hardware reference that saw the
// same edges in the same two-source run (a PHC's external timestamps: `ppsbench run --source
// ptp:/dev/ptp0 --source pps:/dev/pps0`). Per paired edge, lateness = path − reference, in ns
// on CLOCK_REALTIME; docs/latency.md gives its meaning and error budget.
struct Bias {
    std::string reference;  // the reference path's source ("ptp:/dev/ptp0")
    std::size_t pairs = 0;
    std::size_t unpaired = 0;  // this path's pulses the reference did not see, and vice versa
    double mean_ns = 0;
    stats::Interval mean_interval;  // Student-t
    double median_ns = 0;
    // Distribution-free: between the order statistics whose ranks the binomial (n, ½) puts
    // around the middle with the confidence asked for.
    stats::Interval median_interval;
    double stddev_ns = 0;  // n − 1
    double p99_ns = 0;     // of the lateness itself (numpy's linear interpolation)
    double max_ns = 0;
    double min_ns = 0;
    // The largest uncertainty the reference stated for its own conversion onto CLOCK_REALTIME
    // (its phc_offset_uncertainty_ns column), −1 when it recorded none.
    std::int64_t reference_uncertainty_ns = -1;
    // Against a polled reference (poll:), the figures above are of the periods it did not poll,
    // against an edge interpolated between its neighbouring polled ones: polling a pin can
    // change what it measures (a PCIe read keeps the RP1's link out of L1). The polled periods'
    // own bias, the disturbance, is kept apart here; 0 pairs for any other reference.
    std::size_t polled_pairs = 0;
    double polled_mean_ns = std::nan("");
    double polled_median_ns = std::nan("");
    // What the polling cost, from the poll path's own columns: the periods it found an edge in,
    // the median time between two level reads of a window (poll_read_interval_ns), and the
    // median half-bracket (poll_uncertainty_ns), the uncertainty one read interval buys; NaN
    // for any other reference, or a saved summary written before they were kept.
    std::size_t poll_periods = 0;
    double poll_read_interval_ns = std::nan("");
    double poll_uncertainty_median_ns = std::nan("");
};

// The report document's "bias" object (ns; null figures for NaN), and back (a saved summary
// used as a gate baseline).
nlohmann::json to_json(const Bias& bias);
Bias bias_from_json(const nlohmann::json& json);

// The figures of a series of per-edge lateness values. `late_ns` is reordered.
Bias describe_bias(std::vector<double> late_ns, double confidence = 0.95);

// Each paired edge's lateness of a path against its reference, in the order of the edges:
// what the bias figures describe and what `calibrate` turns into chrony's offset.
struct Lateness {
    std::string reference;              // the reference path's source
    std::vector<std::int64_t> edge_ns;  // the reference's time of each paired edge
    std::vector<double> late_ns;        // path − reference of the same edges
    std::size_t unpaired = 0;
    std::int64_t reference_uncertainty_ns = -1;  // as Bias::reference_uncertainty_ns
    // A polled reference: `late_ns` holds the unpolled periods (interpolated reference edges),
    // `polled_late_ns` the polled ones (the disturbance), as Bias says.
    bool interpolated = false;
    std::vector<double> polled_late_ns;
    std::size_t poll_periods = 0;  // as Bias says
    double poll_read_interval_ns = std::nan("");
    double poll_uncertainty_median_ns = std::nan("");
};

// The lateness of `file`'s pulses against its two-source run's reference (the run recorded
// "peer_is_reference"); nullopt without one. The peer file is looked for as reference_bias
// says, and a peer that cannot be read throws core::InputError naming it.
std::optional<Lateness> reference_lateness(const store::CaptureFile& file,
                                           std::optional<core::Edge> edge = std::nullopt);

// The bias of `file`'s pulses against its two-source run's peer when that peer is a hardware
// reference (the run recorded "peer_is_reference"); nullopt otherwise. The peer file is looked
// for where the run wrote it, then beside `file` (captures copied elsewhere together). Throws
// core::InputError naming the peer when it cannot be read.
// With `edge`, only that edge's pulses of `file` (a capture of both edges is two runs).
std::optional<Bias> reference_bias(const store::CaptureFile& file,
                                   std::optional<core::Edge> edge = std::nullopt,
                                   double confidence = 0.95);

}  // namespace ppsbench::analysis
