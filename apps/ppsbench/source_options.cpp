// SPDX-License-Identifier: GPL-2.0-or-later
#include "source_options.hpp"

#include <fmt/format.h>
#include <limits>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/option_value.hpp"

namespace ppsbench::app {

const char* const source_specs_help =
    "Sources (--source SPEC):\n"
    "  pps:/dev/ppsN           RFC 2783 PPS device\n"
    "  gpio:CHIP:LINE          edge events of a GPIO line, e.g. gpio:gpiochip0:17;\n"
    "                          libgpiod 2 stamps them on CLOCK_REALTIME (as pps:),\n"
    "                          1.6 on CLOCK_MONOTONIC (detrended figures)\n"
    "  ptp:/dev/ptpN[,extts=K][,pin=P]\n"
    "                          a PTP hardware clock's external timestamps (channel K,\n"
    "                          pin P assigned for the run and restored), moved to\n"
    "                          CLOCK_REALTIME: the hardware reference for a PPS bias\n"
    "  poll:CHIP:LINE[,pattern=10][,window=200us]\n"
    "  poll:bcm2835:PIN  poll:rp1:PIN  poll:mem:/dev/gpiomemN,offset=O,bit=B\n"
    "                          a polled-edge reference: the pin's level busy-polled\n"
    "                          around each predicted edge on the periods the pattern\n"
    "                          picks (10: alternate), each read between two\n"
    "                          CLOCK_REALTIME reads; the bias reference of a\n"
    "                          two-source run without a PHC\n"
    "  replay:FILE             a capture file played back\n"
    "  sim:MODEL[,KNOB=V...]   simulated pulses (SIMULATED in every report); MODEL is\n"
    "                          hardirq, threaded, nothread, or reference (edges\n"
    "                          exactly on the second: a bias reference); knobs:\n"
    "                          missed=RATE, outliers=RATE, outlier-size=D, step=D,\n"
    "                          step-at=SECONDS, freq=PPM, late=D (constant lateness)";

void add_source_options(po::options_description& options, SourceArguments& source) {
    // clang-format off
    options.add_options()
        ("source,s",
         po::value(&source.specs)->default_value(source.specs, "pps:/dev/pps0")->multitoken()
             ->composing(),
         "where pulses come from (see the Sources list); give two to capture the same edges "
         "through two paths and pair them (-o then names both files: FILE-1, FILE-2)")
        ("edge", po::value(&source.edge)->default_value(source.edge),
         "edge to capture: assert|clear|both (rising|falling accepted)")
        ("period", po::value(&source.period)->default_value(source.period),
         "nominal pulse period: 1s for PPS, 100ms, 1ms for a kHz test signal (a replay keeps "
         "its file's)")
        ("seed", po::value(&source.seed)->default_value(source.seed),
         "seed for sim: sources (same seed, same pulses)")
        ("pace", po::value(&source.pace)->default_value(source.pace),
         "sim/replay speed: fast (as fast as possible) or realtime")
        ("bias", po::value(&source.bias)->default_value(source.bias),
         "gpio: line bias as-is|pull-up|pull-down|disable");
    // clang-format on
}

core::Duration parse_period(const std::string& text) {
    const auto period = core::parse_duration(text, "--period");
    // 100 µs (a 10 kHz test signal, beyond what an interrupt-driven PPS path keeps up with) to
    // 1 h: outside that range it is a typo, and 1ns would plan 10⁹ pulses a second.
    if (period < std::chrono::microseconds{100} || period > std::chrono::hours{1}) {
        throw core::UsageError(fmt::format(
            "--period {}: use a period from 100us to 1h (1s for PPS, 100ms, 1ms)", text));
    }
    return period;
}

capture::SourceOptions to_source_options(const SourceArguments& source,
                                         const po::variables_map& vm) {
    capture::SourceOptions options;
    const auto edges = core::parse_edge_selection(source.edge);
    if (!edges) {
        throw core::UsageError(
            fmt::format("--edge {}: use assert, clear or both (or rising/falling)", source.edge));
    }
    options.edges = *edges;
    options.period = parse_period(source.period);
    options.period_given = vm.count("period") > 0 && !vm["period"].defaulted();
    options.seed =
        core::parse_count(source.seed, "--seed", 0, std::numeric_limits<std::uint64_t>::max());
    if (source.pace != "fast" && source.pace != "realtime") {
        throw core::UsageError(fmt::format("--pace {}: use fast or realtime", source.pace));
    }
    options.pace_realtime = source.pace_realtime();
    options.bias = source.bias == "as-is" ? "" : source.bias;
    return options;
}

}  // namespace ppsbench::app
