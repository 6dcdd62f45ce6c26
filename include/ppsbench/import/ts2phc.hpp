// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// linuxptp's ts2phc log (stdout with -m, or syslog), each event of the PPS on a PTP hardware
// clock, in either shape linuxptp has printed:
//
//   ts2phc[1787.088]: eth0 extts index 0 at 1665570382.000000024 corr 0 src 1665570382.70 diff 24
//   ts2phc[7527.572]: adding tstamp 1745856080.999997590 to clock /dev/ptp0
//
// The timestamp is the PHC's, which ts2phc keeps on TAI (UTC + 37 s since 2017): the capture
// records clock `tai`, so it is never paired with CLOCK_REALTIME timestamps by mistake. `SKIP`
// lines (the other edge, which ts2phc ignores) are not pulses.

#include <istream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/import/capture_import.hpp"

namespace ppsbench::import {

namespace detail {
struct LoggedEdge;
}

struct Ts2phcImportOptions {
    // The PHC to import, as the log names it (an interface: eth0; a device: /dev/ptp0); empty:
    // the log's only one.
    std::string clock;
    bool strict = false;
};

class Ts2phcReader {
  public:
    // For read_files(): a problem of the file itself (trailing data after a .gz).
    chrony::SkippedLines& skipped() { return skipped_; }
    explicit Ts2phcReader(Ts2phcImportOptions options);
    ~Ts2phcReader();
    Ts2phcReader(const Ts2phcReader&) = delete;
    Ts2phcReader& operator=(const Ts2phcReader&) = delete;
    void read(std::istream& in, const std::string& name);
    // Throws core::InputError when no edge was read, or edges of several clocks and no --clock.
    CaptureImport finish();

  private:
    // ts2phc's own view of each clock's edges: the servo's offset after an edge (its phase as
    // ts2phc measured it), the edges it ignored, and where the first disagreement was.
    struct ServoCheck {
        std::size_t offsets = 0;      // servo offset lines of the clock
        std::size_t compared = 0;     // of them, those that followed one of its edges
        std::size_t disagreeing = 0;  // further than max_disagreement_ns from that edge's phase
        std::string first_disagreement;
        std::size_t ignored = 0;  // "ignoring invalid master time stamp": edge dropped
        std::string first_ignored;
        std::optional<std::size_t> pending;  // the clock's last edge, awaiting its servo line
        std::optional<std::int64_t> correction_ns;
    };
    void servo_offset(const std::string& clock, std::int64_t offset_ns, const std::string& name,
                      std::size_t line);
    void ignored_edge(const std::string& clock, const std::string& name, std::size_t line);
    void add_servo_notes(CaptureImport& result, const std::string& clock);

    Ts2phcImportOptions options_;
    std::map<std::string, ServoCheck> servo_;
    chrony::SkippedLines skipped_;
    std::vector<std::string> files_;
    std::vector<detail::LoggedEdge> edges_;
    std::map<std::string, std::size_t> clocks_;
    std::size_t lines_ = 0;
    std::size_t skip_lines_ = 0;
};

CaptureImport import_ts2phc(std::istream& in, const std::string& name,
                            const Ts2phcImportOptions& options);

}  // namespace ppsbench::import
