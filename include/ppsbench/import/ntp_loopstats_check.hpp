// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// `import ntp-peerstats ... --loopstats LOOPSTATS`: the imported peer's offsets checked against
// ntpd's own record of the same updates in its loopstats (docs/import.md, "What is
// cross-checked"). What ntpd's source (ntp-project/ntp) guarantees, and so what is judged:
//
// - ntp_proto.c clock_filter writes the peer's peerstats line (record_peer_stats), then calls
//   clock_select; when that peer is the PPS peer (status select field 7, "pps.peer"),
//   clock_select sets sys_offset to the peer's offset and clock_update hands it to
//   ntp_loopfilter.c local_clock, which writes the loopstats line (record_loop_stats) in the
//   same call: both lines carry the same millisecond, or the next one.
// - local_clock logs clock_offset, which is that offset (rstclock) unless the kernel
//   discipline replaced it with ntp_adjtime's answer: whole nanoseconds, the same offset
//   within 1 ns when the kernel took it (Linux's ntp_update_offset always does), the kernel's
//   own offset when a BSD kernel disciplines from PPS itself (refclock flag3: kern_ntptime.c
//   hardupdate ignores the offset under STA_PPSTIME and STA_PPSSIGNAL), or one huff-n'-puff
//   corrected (tinker huffpuff).
//
// So a judged line agrees within 1 ns, or ntpd logged another offset. The logs do not say
// which discipline ran: when no judged line agrees, that is the kernel's (a note; the real
// pfSense logs in tests/import/fixtures are such a case); when some agree, the ones that do
// not are a disagreement (a warning; --strict refuses).

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ppsbench::import {

// One peerstats line, any peer: where it is and what ntpd logged.
struct PeerUpdate {
    std::string file;
    std::size_t line = 0;
    std::string peer;
    std::int64_t time_ms = 0;  // ntpd prints the time of day to the millisecond
    std::int64_t offset_ns = 0;
    int select = 0;  // the status word's select field, (status >> 8) & 7; 7 is pps.peer
};

struct LoopstatsCheck {
    std::vector<std::string> notes;
    std::vector<std::string> warnings;
    nlohmann::json metadata;  // kept under the capture's import record as "loopstats"
};

// Reads `files` (ntpd's loopstats, plain or gzip) and judges the updates of `peer` among
// `updates` (every peer's lines, in file order); `imported_ns` are the imported offsets, whose
// standard deviation is shown beside ntpd's jitter. Throws core::InputError for a file that is
// not loopstats, a malformed line with `strict`, or a disagreement with `strict`.
LoopstatsCheck check_against_loopstats(const std::vector<PeerUpdate>& updates,
                                       const std::string& peer,
                                       const std::vector<std::string>& files,
                                       const std::vector<std::int64_t>& imported_ns, bool strict);

}  // namespace ppsbench::import
