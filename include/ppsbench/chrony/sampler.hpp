// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Sampling chronyd's view (tracking, the PPS refclock's sources and sourcestats rows) during a
// capture. A sampler never throws for chrony's problems: the capture goes on, and each sample
// says what state chrony was in, so the report can say exactly what went wrong, once.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ppsbench/chrony/chronyc.hpp"
#include "ppsbench/chrony/report.hpp"

namespace ppsbench::chrony {

enum class ChronyStatus : std::uint8_t {
    ok,                   // synchronised; tracking (and usually the PPS rows) present
    chronyc_missing,      // chronyc could not be started
    chronyd_not_running,  // no chronyd behind the command socket (absent or refused)
    not_synchronised,     // chronyd answers but follows no source; tracking present
    died,                 // chronyd answered earlier in this run and no longer does
    not_responding,       // chronyc got no answer in time (chronyd stopped or overloaded)
    unexpected_output,    // chronyc's output did not parse (detail names the field)
};

// "ok", "chronyc-missing", "chronyd-not-running", "not-synchronised", "died", "not-responding",
// "unexpected-output": the spellings used in capture files and JSON reports.
std::string_view to_string(ChronyStatus status);
std::optional<ChronyStatus> parse_chrony_status(std::string_view text);

// How the PPS source rows were chosen.
enum class PpsPick : std::uint8_t {
    none,      // no matching refclock and no selected source
    refid,     // the `#` source whose name is the PPS refclock's refid
    selected,  // no refid match: chronyd's selected (`*`) source instead
};
std::string_view to_string(PpsPick pick);
std::optional<PpsPick> parse_pps_pick(std::string_view text);

struct ChronySample {
    std::int64_t wall_time_ns = 0;  // CLOCK_REALTIME when the sample was started
    ChronyStatus status = ChronyStatus::chronyd_not_running;
    std::string detail;  // one line saying what is wrong; empty when ok
    std::optional<TrackingSample> tracking;
    std::optional<SourceRow> pps_source;
    std::optional<SourceStatsRow> pps_stats;
    PpsPick pps_pick = PpsPick::none;

    // The figure for status lines: chrony's RMS offset, when chronyd is synchronised.
    std::optional<std::int64_t> rms_offset_ns() const;

    friend bool operator==(const ChronySample&, const ChronySample&) = default;
};

struct SamplerOptions {
    ChronycOptions chronyc;
    // Between periodic samples (`--chrony-interval`); the run also samples at start and end.
    std::chrono::seconds interval{16};
    // The PPS refclock's reference ID, when known (e.g. "PPS"). Takes precedence over `device`.
    std::string refid;
    // The captured device (/dev/pps0); its refid is looked up in `chrony_conf`.
    std::string device;
    std::string chrony_conf = "/etc/chrony/chrony.conf";
};

class ChronySampler {
  public:
    explicit ChronySampler(SamplerOptions options);

    // Runs chronyc (tracking, then sources and sourcestats when chronyd answered) and
    // classifies the result. Blocks for at most about 3 × chronyc timeout.
    ChronySample sample();

    // One line when the latest sample's status differs from the previous one (or the first
    // sample is not ok), else nullopt: print it, and nothing stacks up while a state persists.
    const std::optional<std::string>& notice() const { return notice_; }

    // True when a periodic sample is due: never sampled yet, or `interval` since the last one.
    bool due(std::chrono::steady_clock::time_point now) const;

    // The refid the PPS source is matched by ("" when neither given nor found in chrony.conf).
    const std::string& pps_refid() const { return refid_; }
    const SamplerOptions& options() const { return options_; }

  private:
    ChronySample classify_failure(const ChronycResult& result, std::int64_t wall_time_ns) const;
    void pick_pps(ChronySample& sample);
    std::string message_for(const ChronySample& sample) const;

    SamplerOptions options_;
    std::string refid_;
    bool reached_chronyd_ = false;
    std::optional<ChronyStatus> last_status_;
    std::optional<std::string> notice_;
    std::optional<std::chrono::steady_clock::time_point> last_sample_at_;
};

}  // namespace ppsbench::chrony
