// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <string_view>
#include <variant>

#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"
#include "ppsbench/core/utc_time.hpp"
#include "tracking_report.hpp"

namespace ppsbench::chrony {
namespace {

// chrony 4.x tracking.log columns (chrony.conf(5), `log tracking`).
constexpr std::array<std::string_view, 14> names = {
    "date",       "time",       "reference",  "stratum",          "frequency",
    "freq error", "offset",     "leap",       "combined sources", "offset sd",
    "rem. corr.", "root delay", "root disp.", "max. error"};

std::optional<LeapStatus> leap_from_symbol(std::string_view text) {
    if (text == "N") {
        return LeapStatus::normal;
    }
    if (text == "+") {
        return LeapStatus::insert_second;
    }
    if (text == "-") {
        return LeapStatus::delete_second;
    }
    if (text == "?") {
        return LeapStatus::not_synchronised;
    }
    return std::nullopt;
}

// A small non-negative integer column (stratum, combined sources): "1", not "1e300".
std::optional<int> parse_count(std::string_view text) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty() || value < 0 ||
        value > 1000) {
        return std::nullopt;
    }
    return value;
}

// One tracking.log entry, or why the line is skipped (the message names the field and what it
// should be). Banners and blank lines are the caller's.
using TrackingLine = std::variant<TrackingLogEntry, std::string>;

TrackingLine parse_tracking_line(std::string_view line) {
    const auto f = core::split_whitespace(line);
    if (f.size() != names.size()) {
        return fmt::format("has {} fields, expected {} (chrony 4.x tracking.log)", f.size(),
                           names.size());
    }
    TrackingLogEntry e;
    const auto time_ns = detail::parse_log_time(f[0], f[1]);
    if (!time_ns) {
        return fmt::format(
            "fields 1-2 (date and time) are '{} {}', not a UTC date and time like "
            "2017-08-22 13:22:36 from 1970 to 2116",
            detail::printable(f[0]), detail::printable(f[1]));
    }
    e.time_ns = *time_ns;
    if (!detail::is_printable_word(f[2]) || f[2].size() > 64) {
        return fmt::format("field 3 (reference) is '{}', not an address or refid",
                           detail::printable(f[2]));
    }
    e.reference = std::string(f[2]);
    const auto leap = leap_from_symbol(f[7]);
    if (!leap) {
        return fmt::format("field 8 (leap) is '{}', not N, +, - or ?", detail::printable(f[7]));
    }
    e.leap = *leap;
    const auto stratum = parse_count(f[3]);
    const auto sources = parse_count(f[8]);
    if (!stratum || !sources) {
        const std::size_t i = stratum ? 8 : 3;
        return fmt::format("field {} ({}) is '{}', not a whole number", i + 1, names[i],
                           detail::printable(f[i]));
    }
    e.stratum = *stratum;
    e.combined_sources = *sources;

    std::array<double, 14> v{};
    for (std::size_t i : {4U, 5U, 6U, 9U, 10U, 11U, 12U, 13U}) {
        const auto value = detail::parse_double(f[i]);
        if (!value) {
            return fmt::format("field {} ({}) is '{}', not a finite number", i + 1, names[i],
                               detail::printable(f[i]));
        }
        v[i] = *value;
    }
    e.frequency_ppm = v[4];
    e.frequency_error_ppm = v[5];
    e.offset_ns = v[6] * 1e9;
    e.offset_sd_ns = v[9] * 1e9;
    e.remaining_correction_ns = v[10] * 1e9;
    e.root_delay_ns = v[11] * 1e9;
    e.root_dispersion_ns = v[12] * 1e9;
    e.max_error_ns = v[13] * 1e9;
    return e;
}

// What chronyd logs first in every process: REF_Initialise() ends in REF_SetUnsynchronised(),
// which logs no reference, stratum 0, leap "?" and offset 0. chronyd writes the same shape
// within a process too (an unknown clock step, "no majority", the fallback-drift timeout), but
// then with the root delay of its last reference: only REF_Initialise() sets it to 1.0 s
// (reference.c of chrony 3.5 and 4.0-4.8), and the log prints it as 1.000e+00.
bool is_startup_line(const TrackingLogEntry& e) {
    constexpr double initial_root_delay_ns = 1e9;
    return e.reference == "0.0.0.0" && e.stratum == 0 && e.leap == LeapStatus::not_synchronised &&
           e.offset_ns == 0.0 && e.combined_sources == 0 &&
           e.root_delay_ns == initial_root_delay_ns;
}

// chronyd's `logbanner` from the files: the most common number of entries between two banners
// of the same file, if it occurs at least twice (one gap may be a restart's); else chrony's
// default.
std::size_t banner_period(const std::vector<std::size_t>& gaps) {
    constexpr std::size_t chrony_default = 32;
    std::map<std::size_t, std::size_t> counts;
    for (const auto g : gaps) {
        ++counts[g];
    }
    std::size_t best = chrony_default;
    std::size_t best_count = 1;
    for (const auto& [gap, count] : counts) {
        if (count > best_count || (count == best_count && count > 1 && gap > best)) {
            best = gap;
            best_count = count;
        }
    }
    return best;
}

}  // namespace

TrackingLogReader::TrackingLogReader(TrackingImportOptions options)
    : options_(options), skipped_(options.strict) {}

void TrackingLogReader::read(std::istream& in, const std::string& name) {
    const std::size_t file = files_.size();
    files_.push_back(name);
    bool previous_was_banner = false;  // a banner line, with no entry since
    std::size_t headers_in_block = 0;  // column headers in the current run of banner lines

    std::string line;
    std::size_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        ++result_.lines;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos) {
            end_report(name);
            continue;  // blank: neither entry nor banner
        }
        if (take_report_line(line, n, name)) {
            continue;
        }
        if (detail::is_banner(line)) {
            // A banner is a block of lines (rule, header, rule). A block with no entry since
            // the previous banner of this file repeats it; it is not a new cycle.
            const bool header = line[first] != '=';
            if (!previous_was_banner) {
                headers_in_block = 0;
                if (!banners_.empty() && banners_.back().file == file &&
                    banners_.back().entries_before == result_.entries.size()) {
                    ++result_.repeated_banners;
                } else {
                    banners_.push_back({file, n, result_.entries.size()});
                }
            }
            if (header && ++headers_in_block > 1) {
                ++result_.repeated_banners;  // two banners back to back
            }
            previous_was_banner = true;
            continue;
        }
        const bool after_banner = previous_was_banner;
        previous_was_banner = false;
        auto parsed = parse_tracking_line(line);
        if (auto* problem = std::get_if<std::string>(&parsed)) {
            skipped_.add(name, n, std::move(*problem));
            continue;
        }
        result_.entries.push_back(std::get<TrackingLogEntry>(std::move(parsed)));
        entry_file_.push_back(file);
        entry_line_.push_back(n);
        entry_after_banner_.push_back(after_banner);
    }
    end_report(name);
}

namespace {

std::vector<detail::FileSpan> file_spans(const std::vector<TrackingLogEntry>& entries,
                                         const std::vector<std::size_t>& entry_file) {
    std::vector<detail::FileSpan> spans;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::int64_t t = entries[i].time_ns;
        if (spans.empty() || spans.back().file != entry_file[i]) {
            spans.push_back({entry_file[i], t, t});
        }
        spans.back().first_ns = std::min(spans.back().first_ns, t);
        spans.back().last_ns = std::max(spans.back().last_ns, t);
    }
    return spans;
}

}  // namespace

void TrackingLogReader::order_files(std::vector<std::string>& notes, std::string& overlap) {
    const auto spans = file_spans(result_.entries, entry_file_);
    const auto rank = detail::file_ranks_by_time(spans, files_.size());
    if (!rank) {
        for (std::size_t i = 1; i < spans.size() && overlap.empty(); ++i) {
            if (spans[i].first_ns <= spans[i - 1].last_ns) {
                overlap = fmt::format(
                    "{} starts at {}, before {} ends at {}", files_[spans[i].file],
                    core::format_utc(spans[i].first_ns, core::UtcPrecision::seconds),
                    files_[spans[i - 1].file],
                    core::format_utc(spans[i - 1].last_ns, core::UtcPrecision::seconds));
            }
        }
        if (!overlap.empty()) {
            notes.push_back(overlap + ": the files overlap, so they are read as given");
        }
        return;
    }
    notes.push_back(detail::reordered_note(*rank, files_) +
                    " (the files were given out of time order)");
    // Each file's entries are contiguous and keep their order; the files move as wholes, and
    // a banner keeps its place among its own file's entries.
    std::vector<std::size_t> first(files_.size(), 0);
    std::vector<std::size_t> count(files_.size(), 0);
    for (std::size_t i = result_.entries.size(); i-- > 0;) {
        first[entry_file_[i]] = i;
        ++count[entry_file_[i]];
    }
    std::vector<std::size_t> files(files_.size());
    for (std::size_t f = 0; f < files.size(); ++f) {
        files[f] = f;
    }
    std::stable_sort(files.begin(), files.end(),
                     [&](std::size_t a, std::size_t b) { return (*rank)[a] < (*rank)[b]; });
    std::vector<std::size_t> moved_first(files_.size(), 0);
    std::vector<std::size_t> order;
    for (const std::size_t f : files) {
        moved_first[f] = order.size();
        for (std::size_t k = 0; k < count[f]; ++k) {
            order.push_back(first[f] + k);
        }
    }
    const auto permute = [&order](auto& values) {
        std::remove_reference_t<decltype(values)> moved;
        moved.reserve(values.size());
        for (const std::size_t i : order) {
            moved.push_back(std::move(values[i]));
        }
        values = std::move(moved);
    };
    permute(result_.entries);
    permute(entry_file_);
    permute(entry_line_);
    permute(entry_after_banner_);
    for (auto& banner : banners_) {
        // A file's entries start where it did: its banners count from there.
        banner.entries_before =
            moved_first[banner.file] +
            (count[banner.file] > 0 ? banner.entries_before - first[banner.file] : 0);
    }
    std::stable_sort(banners_.begin(), banners_.end(), [&](const Banner& a, const Banner& b) {
        return (*rank)[a.file] < (*rank)[b.file];
    });
}

TrackingImport TrackingLogReader::finish() {
    std::vector<std::string> notes;
    std::string overlap;
    order_files(notes, overlap);
    TrackingImport result = std::move(result_);
    result.notes = std::move(notes);
    result.overlap = std::move(overlap);
    result.banners = banners_.size();
    result.problem_count = skipped_.count();
    result.problems = skipped_.take();

    // Entries between consecutive banners of one file (a new file restarts the count, as
    // `chronyc cyclelogs` does).
    std::vector<std::size_t> gaps;
    for (std::size_t b = 1; b < banners_.size(); ++b) {
        if (banners_[b].file == banners_[b - 1].file &&
            banners_[b].entries_before > banners_[b - 1].entries_before) {
            gaps.push_back(banners_[b].entries_before - banners_[b - 1].entries_before);
        }
    }
    result.banner_period = options_.logbanner.value_or(banner_period(gaps));

    // Evidence of a new process, by the index of its first entry.
    std::map<std::size_t, std::string> starts;
    for (std::size_t b = 1; b < banners_.size(); ++b) {
        const auto& prev = banners_[b - 1];
        const auto& cur = banners_[b];
        if (cur.file != prev.file || result.banner_period == 0 || banners_.empty() ||
            cur.entries_before >= result.entries.size()) {
            continue;
        }
        const std::size_t gap = cur.entries_before - prev.entries_before;
        if (gap % result.banner_period != 0) {
            starts[cur.entries_before] = fmt::format(
                "banner after {} entries, out of its {}-entry cycle", gap, result.banner_period);
        }
    }
    // A new process writes its banner before its first entry, so in a file with banners a
    // start-up line that follows none is the same process: one that never synchronised logs
    // its later unsynchronised lines with the initial root delay too.
    std::vector<bool> file_has_banners(files_.size(), false);
    for (const auto& banner : banners_) {
        file_has_banners[banner.file] = true;
    }
    for (std::size_t i = 1; i < result.entries.size(); ++i) {
        if (is_startup_line(result.entries[i]) &&
            (entry_after_banner_[i] || !file_has_banners[entry_file_[i]])) {
            auto& evidence = starts[i];
            evidence = evidence.empty() ? "start-up line" : "start-up line and " + evidence;
        }
    }
    starts.erase(0);

    const auto rms_at = recompute_rms(result, starts);
    cross_check(result, rms_at);
    return result;
}

std::vector<detail::RmsAtEntry> TrackingLogReader::recompute_rms(
    TrackingImport& result, const std::map<std::size_t, std::string>& starts) {
    unsigned process = 1;
    RmsOffsetTracker rms;
    bool any_update = false;
    detail::RmsAtEntry at;
    at.from_start = !result.entries.empty() && is_startup_line(result.entries.front());
    std::vector<detail::RmsAtEntry> rms_at;
    for (std::size_t i = 0; i < result.entries.size(); ++i) {
        auto& e = result.entries[i];
        if (const auto it = starts.find(i); it != starts.end()) {
            ++process;
            rms = RmsOffsetTracker{};
            any_update = false;
            at = detail::RmsAtEntry{};
            at.from_start = is_startup_line(e);
            result.restarts.push_back(
                {files_[entry_file_[i]], entry_line_[i], e.time_ns, it->second});
        }
        e.process = process;
        // Lines with leap '?' come from chronyd without a reference: they log a zero offset
        // and do not enter chronyd's RMS average.
        if (e.leap != LeapStatus::not_synchronised) {
            rms.add(e.offset_ns * 1e-9);
            any_update = true;
        }
        if (any_update) {
            e.rms_offset_ns = rms.rms() * 1e9;
        }
        at.moving_updates = rms.moving_updates();
        at.close_call = rms.close_call();
        at.max_abs_offset_ns = std::max(at.max_abs_offset_ns, std::abs(e.offset_ns));
        rms_at.push_back(at);
    }
    return rms_at;
}

TrackingImport import_tracking_log(std::istream& in, const std::string& name,
                                   const TrackingImportOptions& options) {
    TrackingLogReader reader(options);
    reader.read(in, name);
    return reader.finish();
}

TrackingImport import_tracking_log(const std::string& path, const TrackingImportOptions& options) {
    std::ifstream in = detail::open_log(path, "tracking.log");
    return import_tracking_log(in, path, options);
}

}  // namespace ppsbench::chrony
