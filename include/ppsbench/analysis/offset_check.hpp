// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// `doctor --bias FILE`: does the offset chrony.conf (or ntp.conf) applies to the PPS refclock
// match the bias measured against a reference?

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/chrony/conf.hpp"

namespace ppsbench::analysis {

// An offset a daemon applies to the PPS refclock, and the line that sets it.
struct ConfiguredOffset {
    std::string daemon;  // "chrony" or "ntpd"
    std::string file;
    int line = 0;
    std::string text;      // the line as written
    double offset_ns = 0;  // chrony's `offset`, ntpd's `time1`; 0 when the line has none
    bool given = false;    // the line names one
};

// The `offset` of a `refclock PPS …` directive (chrony.conf(5): seconds, default 0); nullopt
// for any other directive.
std::optional<ConfiguredOffset> chrony_refclock_offset(const chrony::ConfDirective& directive);

// The `time1` of each `fudge 127.127.22.N` line (ntpd's and NTPsec's PPS driver) in `text`.
std::vector<ConfiguredOffset> ntp_pps_offsets(std::string_view text, const std::string& file);

// The same from NTPsec's /etc/ntpsec/ntp.conf and ntpd's /etc/ntp.conf under `sysroot`
// (those that exist; none is not an error).
std::vector<ConfiguredOffset> read_ntp_pps_offsets(const std::string& sysroot);

struct OffsetVerdict {
    ConfiguredOffset configured;
    double measured_ns = 0;     // the constant the bias calls for
    double uncertainty_ns = 0;  // its uncertainty
    double difference_ns = 0;   // configured − measured
    bool matches = false;       // |difference| ≤ uncertainty
    std::string fixed_line;     // the line with the measured offset in place
};

OffsetVerdict check_offset(const ConfiguredOffset& configured, double measured_ns,
                           double uncertainty_ns);

// What a capture or saved summary with a bias says the offset should be.
struct BiasEvidence {
    std::string input;
    std::string reference;
    bool simulated = false;
    // From a capture: chrony's filter estimate (calibrate's constant), unless calibrate refuses
    // one; from a saved summary (which keeps no pulses): the median bias and its interval.
    std::string estimator;  // "chrony-filter" or "median"
    double measured_ns = 0;
    double uncertainty_ns = 0;
    double bias_median_ns = 0;  // kernel timestamp − reference: stays after a calibration
    // The system clock's phase at the reference edges (median, ns): what a calibration
    // corrects. Only from a capture; nullopt from a summary.
    std::optional<double> clock_phase_ns;
};

// Throws core::InputError naming `path` when it holds no bias against a reference.
BiasEvidence load_bias_evidence(const std::string& path);

}  // namespace ppsbench::analysis
