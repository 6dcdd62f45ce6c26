// SPDX-License-Identifier: GPL-2.0-or-later
// linuxptp's phc2sys log: one line per update of the clock it disciplines, as printed with -m
// or through syslog:
//
//   phc2sys[140.943]: CLOCK_REALTIME phc offset      -101 s2 freq     -32 delay    291
//   phc2sys[94980.450]: [ptp4l.0.config] CLOCK_REALTIME phc offset 943 s2 freq -89604 delay 504
//   phc2sys[52.007]: CLOCK_REALTIME pps offset        -4 s2 freq    -2
//
// The word before "offset" is what the offset is of (phc2sys.c's source label): `phc` a PHC,
// `sys` the system clock (as a PHC's source), `pps` a PPS device (phc2sys -d /dev/ppsN, the
// mode that measures a PPS: the offset is the PPS edge's from the top of the second, and there
// is no delay, phc2sys printing the delay only when it read one clock against another).
//
// The bracketed number is phc2sys's own monotonic time in seconds; offset and delay are in ns,
// freq in ppb, and sN is the servo's state (0 unlocked, 1 clock step, 2 locked, 3 locked
// stable).
#include <fmt/format.h>

#include <charconv>

#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/chrony/sample_pulses.hpp"
#include "ppsbench/core/text.hpp"
#include "read_files.hpp"

namespace ppsbench::import::detail {
namespace {

std::optional<std::int64_t> parse_integer(std::string_view text) {
    if (text.starts_with("+")) {
        text.remove_prefix(1);
    }
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

// phc2sys's monotonic time: the number in the first "[...]" of the line ("phc2sys[140.943]:",
// "[195230.451]"), or "" when it printed none.
std::string uptime_of(std::string_view line) {
    const auto open = line.find('[');
    const auto close = line.find(']', open);
    if (open == std::string_view::npos || close == std::string_view::npos) {
        return "";
    }
    const auto inside = line.substr(open + 1, close - open - 1);
    return chrony::detail::parse_double(inside) ? std::string(inside) : "";
}

class Phc2sysReader {
  public:
    // For read_files(): a problem of the file itself (trailing data after a .gz).
    chrony::SkippedLines& skipped() { return skipped_; }
    explicit Phc2sysReader(bool strict) : skipped_(strict) {}

    void read(std::istream& in, const std::string& name) {
        files_.push_back(name);
        std::string line;
        std::size_t n = 0;
        while (std::getline(in, line)) {
            ++n;
            ++series_.lines;
            const auto f = core::split_whitespace(line);
            if (f.empty() || read_line(line, f)) {
                continue;
            }
            if (line.find("phc2sys") == std::string::npos) {
                skipped_.add(
                    name, n,
                    fmt::format("'{}' is not a phc2sys line", chrony::detail::printable(line)));
            } else if (other_lines_++ == 0) {  // its chatter: named if nothing else is found
                first_other_ = fmt::format("{}:{}: '{}'", name, n, chrony::detail::printable(line));
            }
        }
    }

    SeriesImport finish() {
        if (series_.rows.empty()) {
            const std::string others =
                other_lines_ == 0
                    ? ""
                    : fmt::format("; {} phc2sys line{} held no update, the first {}", other_lines_,
                                  other_lines_ == 1 ? "" : "s", first_other_);
            throw core::InputError(fmt::format(
                "{}: no phc2sys updates (lines 'CLOCK phc|sys|pps offset N sS freq F [delay "
                "D]'); phc2sys prints them with -m{}{}",
                chrony::detail::files_label(files_), others, skipped_.summary()));
        }
        series_.problem_count = skipped_.count();
        series_.problems = skipped_.take();
        return std::move(series_);
    }

  private:
    // One update, or false (phc2sys's other lines, summaries, anything else).
    bool read_line(std::string_view line, const std::vector<std::string_view>& f) {
        for (std::size_t i = 0; i + 6 < f.size(); ++i) {
            if (f[i + 1] != "phc" && f[i + 1] != "sys" && f[i + 1] != "pps") {
                continue;
            }
            if (f[i + 2] != "offset" || f[i + 5] != "freq" || !f[i + 4].starts_with("s")) {
                continue;
            }
            const auto offset = parse_integer(f[i + 3]);
            const auto state = parse_integer(f[i + 4].substr(1));
            const auto freq = parse_integer(f[i + 6]);
            std::optional<std::int64_t> delay;
            if (i + 8 < f.size() && f[i + 7] == "delay") {
                delay = parse_integer(f[i + 8]);
            }
            if (!offset || !state || !freq || !chrony::detail::is_printable_word(f[i])) {
                return false;
            }
            series_.rows.push_back({uptime_of(line.substr(0, line.find(f[i]))), std::string(f[i]),
                                    std::to_string(*offset), std::to_string(*state),
                                    std::to_string(*freq), delay ? std::to_string(*delay) : "",
                                    std::string(f[i + 1])});
            return true;
        }
        return false;
    }

    chrony::SkippedLines skipped_;
    std::vector<std::string> files_;
    SeriesImport series_ = with_columns(
        {"uptime_s", "clock", "offset_ns", "servo_state", "freq_ppb", "delay_ns", "source"});
    std::size_t other_lines_ = 0;  // phc2sys's lines that are no update (summaries, notices)
    std::string first_other_;
};

}  // namespace

Imported read_phc2sys(const Files& files, const ImportOptions& options) {
    Phc2sysReader reader(options.strict);
    read_files(files, FileKind::phc2sys, reader);
    return reader.finish();
}

}  // namespace ppsbench::import::detail
