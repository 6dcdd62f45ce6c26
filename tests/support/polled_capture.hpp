// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "ppsbench/core/pulse.hpp"
#include "ppsbench/store/capture_writer.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::testing {

// One edge a poll: path found, with the two columns it writes beside it.
struct PolledEdge {
    core::Pulse pulse;
    std::int64_t uncertainty_ns = 400;  // poll_uncertainty_ns: the half-bracket
    std::int64_t read_interval_ns = 850;
};

// The two files of `ppsbench run --source pps:/dev/pps0 --source poll:gpiochip0:18`: the PPS
// path's (A, measured against its peer) and the polled reference's (B).
inline void write_polled_run(const std::string& pps_file, const std::string& poll_file,
                             std::span<const core::Pulse> pps, std::span<const PolledEdge> polled) {
    store::RunMeta a;
    a.source = "pps:/dev/pps0";
    a.dual = store::DualLink{"A", "poll:gpiochip0:18", poll_file, true, "feedc0de"};
    store::RunMeta b;
    b.source = "poll:gpiochip0:18";
    b.dual = store::DualLink{"B", "pps:/dev/pps0", pps_file, false, "feedc0de"};
    store::CaptureWriter path(pps_file, a, false);
    store::CaptureWriter ref(poll_file, b, false, {"poll_uncertainty_ns", "poll_read_interval_ns"});
    path.write(pps);
    for (const auto& edge : polled) {
        ref.write_rows(std::array{edge.pulse},
                       std::array<std::int64_t, 2>{edge.uncertainty_ns, edge.read_interval_ns});
    }
}

}  // namespace ppsbench::testing
