// SPDX-License-Identifier: GPL-2.0-or-later
// ntpd's loopstats beside the imported peerstats (include/ppsbench/import/ntp_loopstats_check.hpp
// has what ntpd's source guarantees). Citations are to ntp-project/ntp (NTP_4_3_91; the same
// code in 4.2.8): ntpd/ntp_util.c record_loop_stats writes
//   "%lu %s %.9f %.3f %.9f %.6f %d": MJD, seconds (3 decimals), offset, frequency (ppm),
//   jitter, wander (ppm), poll (log2 s).
#include "ppsbench/import/ntp_loopstats_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/chrony/sample_pulses.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"
#include "ppsbench/import/file_kind.hpp"
#include "ppsbench/import/input.hpp"

namespace ppsbench::import {
namespace {

constexpr std::int64_t mjd_of_1970 = 40587;
// ntpd hands the kernel whole nanoseconds, (int32)(clock_offset * 1e9 ± .5), and logs what the
// kernel hands back (ntp_loopfilter.c local_clock): the same offset within 1 ns.
constexpr std::int64_t agreement_ns = 1;
// Warnings printed one by one; the rest are counted.
constexpr std::size_t shown_warnings = 10;

struct LoopLine {
    std::string file;
    std::size_t line = 0;
    std::int64_t time_ms = 0;
    std::int64_t offset_ns = 0;
    std::int64_t jitter_ns = 0;
};

// "61016" "2.878" -> ms since 1970, as printed (ntp_util.c: ulfptoa(&now, 3)).
std::optional<std::int64_t> time_ms(std::string_view day, std::string_view seconds) {
    std::int64_t mjd = 0;
    const auto [end, ec] = std::from_chars(day.data(), day.data() + day.size(), mjd);
    const auto s = chrony::detail::parse_double(seconds);
    if (ec != std::errc{} || end != day.data() + day.size() || mjd < mjd_of_1970 ||
        mjd > mjd_of_1970 + 106'000 || !s || *s < 0.0 || *s >= 86401.0) {
        return std::nullopt;
    }
    return (mjd - mjd_of_1970) * 86'400'000 + std::llround(*s * 1e3);
}

// A nanosecond count as ntpd prints seconds, "%.9f": -663 -> "-0.000000663".
std::string seconds_text(std::int64_t ns) {
    const std::int64_t magnitude = ns < 0 ? -ns : ns;
    return fmt::format("{}{}.{:09}", ns < 0 ? "-" : "", magnitude / 1'000'000'000,
                       magnitude % 1'000'000'000);
}

// MJD and seconds, as ntpd prints the time of a line: "61016 2.878".
std::string time_text(std::int64_t ms) {
    return fmt::format("{} {}.{:03}", ms / 86'400'000 + mjd_of_1970, ms % 86'400'000 / 1000,
                       ms % 1000);
}

void read_loopstats(Input& input, std::vector<LoopLine>& out, chrony::SkippedLines& skipped) {
    std::string text;
    std::size_t n = 0;
    while (std::getline(input.stream(), text)) {
        ++n;
        const auto f = core::split_whitespace(text);
        if (f.empty()) {
            continue;
        }
        if (f.size() != 7) {
            skipped.add(input.name(), n,
                        fmt::format("has {} fields, expected ntpd's 7 loopstats fields (MJD, "
                                    "seconds, offset, frequency, jitter, wander, poll)",
                                    f.size()));
            continue;
        }
        const auto ms = time_ms(f[0], f[1]);
        const auto offset = chrony::detail::parse_double(f[2]);
        const auto jitter = chrony::detail::parse_double(f[4]);
        // ntpd steps or gives up ("panic") beyond 1000 s: a larger offset is no loopstats
        // figure, and llround of it would not fit.
        if (!ms || !offset || !jitter || std::fabs(*offset) > 1000.0 ||
            std::fabs(*jitter) > 1000.0 || *jitter < 0.0) {
            skipped.add(input.name(), n,
                        fmt::format("'{}' is not a loopstats line (MJD, seconds, offset, "
                                    "frequency, jitter, wander, poll, like 61016 2.878 "
                                    "0.000001853 -33.344 0.000003510 0.002074 3)",
                                    chrony::detail::printable(text)));
            continue;
        }
        out.push_back(
            {input.name(), n, *ms, std::llround(*offset * 1e9), std::llround(*jitter * 1e9)});
    }
}

std::vector<LoopLine> read_all(const std::vector<std::string>& files, bool strict,
                               std::size_t& skipped_count, std::string& skipped_summary) {
    chrony::SkippedLines skipped(strict);
    std::vector<LoopLine> lines;
    for (const auto& path : files) {
        Input input(path);
        const FileKind kind = identify(input.head());
        if (kind != FileKind::ntp_loopstats && kind != FileKind::unknown &&
            kind != FileKind::empty) {
            throw core::InputError(
                fmt::format("{}: given to --loopstats, but this is {}; --loopstats takes ntpd's "
                            "loopstats ('statistics loopstats' in ntp.conf)",
                            input.name(), describe(kind)));
        }
        read_loopstats(input, lines, skipped);
        if (const auto& trailing = input.trailing_data()) {  // as read_files() does
            skipped.add(input.name(), trailing->line, trailing->to_string());
        }
    }
    if (lines.empty()) {
        throw core::InputError(fmt::format(
            "{}: no loopstats lines (7 fields: MJD, seconds, offset, frequency, jitter, wander, "
            "poll); --loopstats takes ntpd's loopstats ('statistics loopstats' in ntp.conf){}",
            chrony::detail::files_label(files), skipped.summary()));
    }
    skipped_count = skipped.count();
    if (skipped_count > 0) {
        skipped_summary =
            fmt::format("; {} loopstats line{} skipped, first {}", skipped_count,
                        skipped_count == 1 ? "" : "s", skipped.take().front().to_string());
    }
    return lines;
}

std::int64_t median(std::vector<std::int64_t> values) {
    std::nth_element(values.begin(),
                     values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2), values.end());
    return values[values.size() / 2];
}

// The outcome of matching every loopstats line to the peerstats update that wrote it.
struct Matching {
    std::size_t matched = 0;  // written with an update of the imported peer
    std::size_t judged = 0;   // ... while it was the PPS peer
    std::size_t agreed = 0;
    std::vector<std::string> disagreements;
    std::vector<std::int64_t> differences_ns;  // |loopstats - peer| of every judged line
};

Matching match(const std::vector<PeerUpdate>& updates, const std::string& peer,
               const std::vector<LoopLine>& loop) {
    std::vector<const PeerUpdate*> by_time;
    for (const auto& u : updates) {
        by_time.push_back(&u);
    }
    std::stable_sort(by_time.begin(), by_time.end(),
                     [](const auto* a, const auto* b) { return a->time_ms < b->time_ms; });
    Matching m;
    for (const auto& l : loop) {
        // The update whose clock_select wrote this line was logged in the same millisecond or
        // the one before; with two updates there (another peer's as well) it is not known
        // which one, so the line is not judged.
        const auto first =
            std::lower_bound(by_time.begin(), by_time.end(), l.time_ms - 1,
                             [](const auto* u, std::int64_t t) { return u->time_ms < t; });
        const auto last =
            std::upper_bound(by_time.begin(), by_time.end(), l.time_ms,
                             [](std::int64_t t, const auto* u) { return t < u->time_ms; });
        if (last - first != 1 || (*first)->peer != peer) {
            continue;
        }
        ++m.matched;
        const PeerUpdate& u = **first;
        // ntp_proto.c clock_select: only as pps.peer is sys_offset the peer's own offset
        // (as sys.peer it may be clock_combine's weighted mean of all survivors).
        if (u.select != 7) {
            continue;
        }
        ++m.judged;
        const std::int64_t difference = l.offset_ns - u.offset_ns;
        m.differences_ns.push_back(std::abs(difference));
        if (std::abs(difference) <= agreement_ns) {
            ++m.agreed;
            continue;
        }
        m.disagreements.push_back(fmt::format(
            "{}:{}: ntpd's loopstats offset {} s is not the offset {} s of peer {} at the same "
            "update ({}:{}), {} ns apart",
            l.file, l.line, seconds_text(l.offset_ns), seconds_text(u.offset_ns), peer, u.file,
            u.line, difference));
    }
    return m;
}

// Why nothing was judged, for the "not cross-checked" note.
std::string unjudged_reason(const std::vector<PeerUpdate>& updates, const std::string& peer,
                            const std::vector<LoopLine>& loop, const Matching& m) {
    std::int64_t first = 0;
    std::int64_t last = 0;
    bool any = false;
    for (const auto& u : updates) {
        if (u.peer == peer) {
            first = any ? std::min(first, u.time_ms) : u.time_ms;
            last = any ? std::max(last, u.time_ms) : u.time_ms;
            any = true;
        }
    }
    const auto [lo, hi] =
        std::minmax_element(loop.begin(), loop.end(),
                            [](const auto& a, const auto& b) { return a.time_ms < b.time_ms; });
    if (hi->time_ms < first || lo->time_ms > last + 1) {
        return fmt::format(
            "the loopstats ({} to {}) and peer {}'s lines ({} to {}) are of different times",
            time_text(lo->time_ms), time_text(hi->time_ms), peer, time_text(first),
            time_text(last));
    }
    if (m.matched == 0) {
        return fmt::format(
            "no loopstats line was written in the millisecond of an update of peer {}, as ntpd "
            "writes one when that peer's update sets the clock (ntp_proto.c clock_filter, "
            "clock_select, clock_update; ntp_loopfilter.c local_clock): ntpd followed another "
            "peer",
            peer);
    }
    return fmt::format(
        "at the {} loopstats line{} written with peer {}'s updates, its peerstats status did not "
        "say pps.peer (select field 7), so ntpd's offset there need not be the peer's "
        "(ntp_proto.c clock_select combines the survivors' offsets)",
        m.matched, m.matched == 1 ? "" : "s", peer);
}

// The sample standard deviation (n - 1), as the report's offset σ.
double sample_sigma(const std::vector<std::int64_t>& values) {
    double mean = 0;
    for (const auto v : values) {
        mean += static_cast<double>(v);
    }
    mean /= static_cast<double>(values.size());
    double sum = 0;
    for (const auto v : values) {
        sum += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
    }
    return std::sqrt(sum / static_cast<double>(values.size() - 1));
}

// ntpd's jitter over the peer's span, beside the imported offsets' σ: never checked, the two
// are different statistics.
std::string jitter_note(const std::vector<PeerUpdate>& updates, const std::string& peer,
                        const std::vector<LoopLine>& loop,
                        const std::vector<std::int64_t>& imported_ns,
                        std::optional<std::int64_t>& median_ns) {
    std::int64_t first = INT64_MAX;
    std::int64_t last = INT64_MIN;
    for (const auto& u : updates) {
        if (u.peer == peer) {
            first = std::min(first, u.time_ms);
            last = std::max(last, u.time_ms);
        }
    }
    std::vector<std::int64_t> jitter;
    for (const auto& l : loop) {
        if (l.time_ms >= first && l.time_ms <= last + 1) {
            jitter.push_back(l.jitter_ns);
        }
    }
    if (jitter.empty() || imported_ns.size() < 2) {
        return {};
    }
    median_ns = median(jitter);
    return fmt::format(
        "ntpd's own jitter beside the import, not checked: median {} ns in its loopstats ({} "
        "lines in peer {}'s time), while the imported offsets' standard deviation (the "
        "report's offset σ) is {:.0f} ns. They are different statistics: ntpd's is "
        "ntp_loopfilter.c local_clock's clock_jitter, the RMS of successive update offset "
        "differences averaged exponentially over 8 updates (about √2·σ for independent "
        "offsets), or the kernel's PPS jitter under kernel PPS discipline",
        *median_ns, jitter.size(), peer, sample_sigma(imported_ns));
}

}  // namespace

LoopstatsCheck check_against_loopstats(const std::vector<PeerUpdate>& updates,
                                       const std::string& peer,
                                       const std::vector<std::string>& files,
                                       const std::vector<std::int64_t>& imported_ns, bool strict) {
    std::size_t skipped_count = 0;
    std::string skipped_summary;
    const std::vector<LoopLine> loop = read_all(files, strict, skipped_count, skipped_summary);
    Matching m = match(updates, peer, loop);
    LoopstatsCheck check;
    if (m.judged == 0) {
        check.notes.push_back(fmt::format("not cross-checked with ntpd's loopstats: {}{}",
                                          unjudged_reason(updates, peer, loop, m),
                                          skipped_summary));
    } else if (m.agreed == m.judged) {
        check.notes.push_back(fmt::format(
            "cross-checked with ntpd's loopstats: at all {} updates where peer {} was ntpd's PPS "
            "peer (pps.peer), the offset ntpd's clock discipline logged equals the imported one "
            "within 1 ns{}",
            m.judged, peer, skipped_summary));
    } else if (m.agreed == 0) {
        // Every judged line: the kernel's offset (or huff-n'-puff's), not a contradiction.
        check.notes.push_back(fmt::format(
            "not cross-checked with ntpd's loopstats: at all {} updates where peer {} was ntpd's "
            "PPS peer, the offset ntpd logged differs from the peer's (median {} ns apart), as "
            "when a BSD kernel disciplines the clock from PPS itself (refclock flag3; its "
            "hardupdate then ignores ntpd's offset) and local_clock logs the kernel's offset, "
            "or huff-n'-puff corrects it{}",
            m.judged, peer, median(m.differences_ns), skipped_summary));
    } else {
        const std::string summary = fmt::format(
            "{} of {} updates where peer {} was ntpd's PPS peer disagree with ntpd's loopstats "
            "by more than 1 ns, while {} agree: ntpd logged another offset than the one "
            "imported (first {}); only a kernel's PPS discipline switching mid-file would "
            "explain it",
            m.disagreements.size(), m.judged, peer, m.agreed, m.disagreements.front());
        if (strict) {
            throw core::InputError(summary + "; without --strict this is a warning");
        }
        for (std::size_t i = 0; i < m.disagreements.size() && i < shown_warnings; ++i) {
            check.warnings.push_back(m.disagreements[i]);
        }
        if (m.disagreements.size() > shown_warnings) {
            check.warnings.push_back(fmt::format("... and {} more loopstats lines disagree",
                                                 m.disagreements.size() - shown_warnings));
        }
        check.warnings.push_back(summary);
    }
    std::optional<std::int64_t> jitter_median;
    if (auto note = jitter_note(updates, peer, loop, imported_ns, jitter_median); !note.empty()) {
        check.notes.push_back(std::move(note));
    }
    check.metadata = {{"file", chrony::detail::files_json(files)},
                      {"lines", loop.size()},
                      {"skipped_lines", skipped_count},
                      {"matched_lines", m.matched},
                      {"judged_lines", m.judged},
                      {"agreeing_lines", m.agreed}};
    if (jitter_median) {
        check.metadata["jitter_median_ns"] = *jitter_median;
    }
    return check;
}

}  // namespace ppsbench::import
