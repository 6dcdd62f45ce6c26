// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <linux/ptp_clock.h>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace ppsbench::capture {

// The kernel's three ways of relating a PHC to CLOCK_REALTIME, best first.
enum class CrossTimestampMethod : std::uint8_t {
    precise,   // PTP_SYS_OFFSET_PRECISE2: the device latches both clocks at once (e.g. ART)
    extended,  // PTP_SYS_OFFSET_EXTENDED2: system time read just before and after the PHC read
    basic,     // PTP_SYS_OFFSET2: system reads between PHC reads, ioctl overhead included
};
std::string_view to_string(CrossTimestampMethod method);

// One cross-timestamp: CLOCK_REALTIME − PHC at PHC time `phc_ns`, exact to ±uncertainty_ns.
struct CrossTimestamp {
    std::int64_t phc_ns = 0;
    std::int64_t offset_ns = 0;  // realtime − PHC
    std::int64_t uncertainty_ns = 0;
};

std::int64_t to_ns(const ptp_clock_time& t);

// The precise sample is one atomic latch of both clocks: no window, uncertainty 0 (what the
// hardware's own latch costs is the driver's and is not reported by the kernel).
CrossTimestamp from_precise(const ptp_sys_offset_precise& sample);
// Of n (system before, PHC, system after) triples, the one with the narrowest window: a read
// that was interrupted or preempted is wide and tells less. The PHC read happened inside the
// window, so its midpoint is the best estimate and half the window the bound.
CrossTimestamp from_extended(const ptp_sys_offset_extended& sample);
// 2n+1 alternating reads (system, PHC, system, ..., system): the same, each PHC read bracketed
// by the system reads on either side.
CrossTimestamp from_basic(const ptp_sys_offset& sample);

// An external timestamp moved onto CLOCK_REALTIME.
struct RealtimeEvent {
    std::int64_t realtime_ns = 0;
    std::int64_t offset_ns = 0;       // realtime − PHC applied to this event
    std::int64_t uncertainty_ns = 0;  // the cross-timestamps' and the PHC frequency's share
};

// Converts PHC times with the two most recent cross-timestamps. An event between the two gets
// the offset interpolated linearly, which removes the PHC's frequency error relative to the
// system clock (a free-running NIC clock can be 10–100 ppm off: 10–100 ns per ms between the
// event and a sample); outside them it is extrapolated along the same line, and the distance
// times the observed rate difference is added to its uncertainty, because that line is only
// known between the samples.
class PhcTimeBase {
  public:
    // Samples further apart than this are not interpolated between (a stalled capture or a
    // stepped clock would make the line meaningless): the newer one is used alone.
    static constexpr std::int64_t max_span_ns = 10'000'000'000;

    void add(const CrossTimestamp& sample);
    bool empty() const { return !newest_; }
    RealtimeEvent convert(std::int64_t phc_ns) const;

  private:
    std::optional<CrossTimestamp> older_;
    std::optional<CrossTimestamp> newest_;
};

}  // namespace ppsbench::capture
