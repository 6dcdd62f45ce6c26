// SPDX-License-Identifier: GPL-2.0-or-later
#include "tracking_report.hpp"

#include <fmt/format.h>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "csv.hpp"
#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"
#include "ppsbench/core/utc_time.hpp"

namespace ppsbench::chrony::detail {
namespace {

// client.c, process_cmd_tracking(): print_report()'s format, one label per line.
constexpr std::array<std::string_view, report_line_count> labels = {
    "Reference ID",    "Stratum",         "Ref time (UTC)", "System time", "Last offset",
    "RMS offset",      "Frequency",       "Residual freq",  "Skew",        "Root delay",
    "Root dispersion", "Update interval", "Leap status"};
constexpr std::size_t reference_id = 0;
constexpr std::size_t ref_time = 2;
constexpr std::size_t last_offset = 4;
constexpr std::size_t rms_offset = 5;
constexpr std::size_t leap_status = 12;

// tracking.log prints offsets with %10.3e (reference.c, write_log()): four significant digits,
// so a logged offset is the true one times (1 + d), |d| <= 5e-4, and so is an RMS of them.
constexpr double log_relative_rounding = 5e-4;
// chronyc prints both offsets with nine decimals: 1 ns, so each is within 0.5 ns.
constexpr double chronyc_rounding_ns = 0.5;
// After m moving updates an unseen start weighs 0.9^m in chronyd's mean square; with chronyd's
// RMS offset under 1 s before the log began its share of the RMS is at most 0.9^(m/2) s, below
// 0.5 ns from m = 407 on (0.9^407 = 2.4e-19 <= (0.5e-9)^2).
constexpr std::size_t unseen_start_updates = 407;
constexpr double unseen_start_bound_ns = 1e9;

std::string_view value_of(std::string_view line) {
    const auto colon = line.find(':');
    auto value = line.substr(colon + 1);
    const auto first = value.find_first_not_of(" \t");
    const auto last = value.find_last_not_of(" \t\r");
    return first == std::string_view::npos ? std::string_view{}
                                           : value.substr(first, last - first + 1);
}

// "Mon Dec 07 21:00:00 2026" (strftime "%a %b %d %T %Y" of UTC) -> ns since the epoch.
std::optional<std::int64_t> parse_ref_time(std::string_view text) {
    static constexpr std::array<std::string_view, 12> months = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const auto f = core::split_whitespace(text);
    if (f.size() != 5 || f[2].size() != 2 || f[4].size() != 4) {
        return std::nullopt;
    }
    for (std::size_t m = 0; m < months.size(); ++m) {
        if (f[1] == months[m]) {
            return parse_log_time(fmt::format("{}-{:02}-{}", f[4], m + 1, f[2]), f[3]);
        }
    }
    return std::nullopt;
}

// "+0.000000003 seconds" -> 3.
std::optional<std::int64_t> parse_seconds(std::string_view text) {
    const auto f = core::split_whitespace(text);
    if (f.size() != 2 || f[1] != "seconds") {
        return std::nullopt;
    }
    return parse_fixed_ns(f[0]);
}

std::string seconds_text(std::int64_t ns, bool sign) {
    const std::int64_t magnitude = std::llabs(ns);
    return fmt::format("{}{}.{:09}", ns < 0 ? "-" : (sign ? "+" : ""), magnitude / 1'000'000'000,
                       magnitude % 1'000'000'000);
}

std::string log_offset_text(double offset_ns) {
    return fmt::format("{:.3e}", offset_ns * 1e-9);
}

// Whether chronyc's Last offset and the log's Offset can be the same double: each is within
// its own rounding of it.
bool offsets_agree(std::int64_t chronyc_ns, double log_ns) {
    const double magnitude = std::abs(log_ns);
    const double half_digit =
        magnitude > 0.0 ? 0.5e-3 * std::pow(10.0, std::floor(std::log10(magnitude))) : 0.0;
    return std::abs(static_cast<double>(chronyc_ns) - log_ns) <=
           chronyc_rounding_ns + half_digit * (1.0 + 1e-9);
}

}  // namespace

std::optional<std::size_t> report_label(std::string_view line) {
    const auto first = line.find_first_not_of(" \t");
    const auto colon = line.find(':');
    if (first == std::string_view::npos || colon == std::string_view::npos || colon < first) {
        return std::nullopt;
    }
    auto label = line.substr(first, colon - first);
    label = label.substr(0, label.find_last_not_of(" \t") + 1);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (label == labels[i]) {
            return i;
        }
    }
    return std::nullopt;
}

std::variant<ChronycTrackingReport, ReportProblem> parse_report(std::span<const std::string> lines,
                                                                const std::string& file,
                                                                std::size_t first_line) {
    ChronycTrackingReport r;
    r.file = file;
    r.line = first_line;
    r.reference_id = std::string(value_of(lines[reference_id]));
    r.leap_status = std::string(value_of(lines[leap_status]));
    const auto problem = [&](std::size_t i, std::string_view expected) -> ReportProblem {
        return {first_line + i, fmt::format("'{}' is '{}', not {} (chronyc tracking)", labels[i],
                                            printable(value_of(lines[i])), expected)};
    };
    const auto time = parse_ref_time(value_of(lines[ref_time]));
    if (!time) {
        return problem(ref_time, "a UTC time like 'Mon Dec 07 21:00:00 2026'");
    }
    r.ref_time_ns = *time;
    const auto last = parse_seconds(value_of(lines[last_offset]));
    if (!last) {
        return problem(last_offset, "like '-0.000000003 seconds'");
    }
    r.last_offset_ns = *last;
    const auto rms = parse_seconds(value_of(lines[rms_offset]));
    if (!rms || *rms < 0) {
        return problem(rms_offset, "like '0.000000440 seconds'");
    }
    r.rms_offset_ns = *rms;
    return r;
}

std::string partial_report_message(std::span<const std::size_t> present) {
    std::string missing;
    std::size_t next = 0;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (next < present.size() && present[next] == i) {
            ++next;
            continue;
        }
        missing += fmt::format("{}'{}'", missing.empty() ? "" : ", ", labels[i]);
    }
    return fmt::format(
        "a part of a `chronyc tracking` report ({} of its {} lines): it lacks {}; paste the "
        "report whole to cross-check it",
        present.size(), labels.size(), missing);
}

namespace {

std::string place_text(const EntryPlace& p) {
    return fmt::format("{}:{}", p.file, p.line);
}

// Why the RMS offset at this entry cannot be judged, or "" when it can.
std::string rms_not_judged(const RmsAtEntry& at) {
    if (at.close_call) {
        return "the log's four digits leave open whether chronyd's average had started moving "
               "(reference.c, REF_SetReference(): it does at the first squared offset above the "
               "last)";
    }
    if (!at.from_start && (at.moving_updates < unseen_start_updates ||
                           at.max_abs_offset_ns >= unseen_start_bound_ns)) {
        return fmt::format(
            "the log starts within this chronyd process (no start-up line), and chronyd's average "
            "(reference.c, REF_SetReference(): mean square += 0.1 (offset^2 - mean square)) keeps "
            "0.9^m of its unseen start after m updates; it has moved {} updates here, and the "
            "start is below 0.5 ns only after {} (with offsets under 1 s)",
            at.moving_updates, unseen_start_updates);
    }
    return {};
}

// The update a report came from: its Ref time is the selected source's last sample time less
// up to 1 s (reference.c, fuzz_ref_time()), printed to the second, and chronyd logs the update
// at or after that sample (REF_SetReference()), within one update interval (the sample is newer
// than the previous update, sources.c: SRC_SelectSource()). So it is an update logged from Ref
// time up to the longest update interval + 1 s later; the first there, or, when that one is
// within 1 s of Ref time, possibly the next: the one whose Offset is chronyc's Last offset.
struct Match {
    std::vector<std::size_t> candidates;
    std::string unmatched;  // why no update can be it
};

Match find_update(const ChronycTrackingReport& r, std::span<const TrackingLogEntry> entries) {
    const auto is_update = [&](std::size_t i) {
        return entries[i].leap != LeapStatus::not_synchronised;
    };
    std::size_t u = 0;
    while (u < entries.size() && (!is_update(u) || entries[u].time_ns < r.ref_time_ns)) {
        ++u;
    }
    if (u == entries.size()) {
        return {{}, "no tracking.log update is at or after its Ref time"};
    }
    const unsigned process = entries[u].process;
    std::int64_t longest = 0;
    for (std::size_t i = 1; i < entries.size(); ++i) {
        if (entries[i].process == process && entries[i - 1].process == process) {
            longest = std::max(longest, entries[i].time_ns - entries[i - 1].time_ns);
        }
    }
    // Saturating: a hostile log can hold one process from 1970 to 2116 (longest ~2^62 ns).
    std::int64_t latest = 0;
    if (__builtin_add_overflow(r.ref_time_ns, longest + 1'000'000'000, &latest)) {
        latest = std::numeric_limits<std::int64_t>::max();
    }
    if (entries[u].time_ns > latest) {
        return {{},
                fmt::format("the first tracking.log update after its Ref time is {} s later, "
                            "more than the log's longest update interval ({} s) + 1 s",
                            (entries[u].time_ns - r.ref_time_ns) / 1'000'000'000,
                            longest / 1'000'000'000)};
    }
    Match m;
    for (std::size_t i = u;
         i < entries.size() && entries[i].process == process && entries[i].time_ns <= latest; ++i) {
        if (!is_update(i)) {
            continue;
        }
        m.candidates.push_back(i);
        if (entries[i].time_ns > r.ref_time_ns + 1'000'000'000) {
            break;
        }
    }
    return m;
}

void check_report(const ChronycTrackingReport& r, std::span<const TrackingLogEntry> entries,
                  std::span<const EntryPlace> places, std::span<const RmsAtEntry> rms,
                  ReportCheck& out) {
    const std::string what =
        fmt::format("{}:{}: chronyc tracking (Ref time {})", r.file, r.line,
                    core::format_utc(r.ref_time_ns, core::UtcPrecision::seconds));
    if (r.reference_id.starts_with("7F7F0101") || r.leap_status == "Not synchronised" ||
        r.ref_time_ns == 0) {
        out.notes.push_back(fmt::format(
            "{}: not cross-checked: chronyd was not synchronised to a source (Reference ID {}, "
            "Leap status {}), so its Ref time is no update's",
            what, printable(r.reference_id), printable(r.leap_status)));
        return;
    }
    const Match m = find_update(r, entries);
    if (m.candidates.empty()) {
        out.notes.push_back(fmt::format("{}: could not be matched: {}", what, m.unmatched));
        return;
    }
    std::size_t c = m.candidates.front();
    bool found = false;
    for (const std::size_t i : m.candidates) {
        if (offsets_agree(r.last_offset_ns, entries[i].offset_ns)) {
            c = i;
            found = true;
            break;
        }
    }
    if (!found) {
        out.warnings.push_back(fmt::format(
            "{}: its Last offset {} s disagrees with the Offset of the update it belongs to, {} "
            "({} s): the report and the log are not of one chronyd",
            what, seconds_text(r.last_offset_ns, true), place_text(places[c]),
            log_offset_text(entries[c].offset_ns)));
        return;
    }
    const std::string matched = fmt::format(
        "its Last offset {} s is the Offset of {} ({} s)", seconds_text(r.last_offset_ns, true),
        place_text(places[c]), log_offset_text(entries[c].offset_ns));
    if (const auto why = rms_not_judged(rms[c]); !why.empty()) {
        out.notes.push_back(fmt::format("{}: {}; its RMS offset ({} s) is not judged: {}", what,
                                        matched, seconds_text(r.rms_offset_ns, false), why));
        return;
    }
    const double recomputed = entries[c].rms_offset_ns.value_or(0.0);
    const double tolerance = chronyc_rounding_ns +
                             recomputed * log_relative_rounding / (1.0 - log_relative_rounding) +
                             (rms[c].from_start ? 0.0 : chronyc_rounding_ns);
    const double difference = std::abs(static_cast<double>(r.rms_offset_ns) - recomputed);
    const std::string figures =
        fmt::format("RMS offset {} s, recomputed from the log {:.3f} ns (tolerance {:.3f} ns)",
                    seconds_text(r.rms_offset_ns, false), recomputed, tolerance);
    if (difference > tolerance) {
        out.warnings.push_back(fmt::format(
            "{}: {}, but its {}: ppsbench's RMS offset is not chronyd's", what, matched, figures));
        return;
    }
    out.notes.push_back(
        fmt::format("{}: cross-checked: {}, and its {} agree", what, matched, figures));
}

}  // namespace

ReportCheck cross_check_reports(std::span<const ChronycTrackingReport> reports,
                                std::span<const TrackingLogEntry> entries,
                                std::span<const EntryPlace> places,
                                std::span<const RmsAtEntry> rms) {
    ReportCheck out;
    for (const auto& r : reports) {
        check_report(r, entries, places, rms, out);
    }
    return out;
}

}  // namespace ppsbench::chrony::detail

// The reader's side: a report's lines gathered while reading, and checked once the log is read.
namespace ppsbench::chrony {

bool TrackingLogReader::take_report_line(const std::string& line, std::size_t n,
                                         const std::string& name) {
    const auto label = detail::report_label(line);
    // A report's lines come in chronyc's order; any other line ends it.
    if (!report_lines_.empty() && (!label || *label != report_lines_.back().label + 1)) {
        end_report(name);
    }
    if (!label) {
        return false;
    }
    report_lines_.push_back({*label, n, line});
    if (*label + 1 == detail::report_line_count) {
        end_report(name);
    }
    return true;
}

void TrackingLogReader::end_report(const std::string& name) {
    if (report_lines_.empty()) {
        return;
    }
    const auto lines = std::move(report_lines_);
    report_lines_.clear();
    if (lines.size() < detail::report_line_count) {
        std::vector<std::size_t> labels;
        for (const auto& l : lines) {
            labels.push_back(l.label);
        }
        skipped_.add(name, lines.front().line, detail::partial_report_message(labels));
        return;
    }
    std::vector<std::string> texts;
    for (const auto& l : lines) {
        texts.push_back(l.text);
    }
    auto parsed = detail::parse_report(texts, name, lines.front().line);
    if (auto* problem = std::get_if<detail::ReportProblem>(&parsed)) {
        skipped_.add(name, problem->line, std::move(problem->message));
        return;
    }
    reports_.push_back(std::get<ChronycTrackingReport>(std::move(parsed)));
}

void TrackingLogReader::cross_check(TrackingImport& result,
                                    const std::vector<detail::RmsAtEntry>& rms_at) {
    std::vector<detail::EntryPlace> places;
    for (std::size_t i = 0; i < result.entries.size(); ++i) {
        places.push_back({files_[entry_file_[i]], entry_line_[i]});
    }
    auto check = detail::cross_check_reports(reports_, result.entries, places, rms_at);
    if (options_.strict && !check.warnings.empty()) {
        throw core::InputError(check.warnings.front() + "; without --strict this is a warning");
    }
    for (auto& note : check.notes) {
        result.notes.push_back(std::move(note));
    }
    result.warnings = std::move(check.warnings);
}

}  // namespace ppsbench::chrony
