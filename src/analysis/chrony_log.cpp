// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/chrony_log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <optional>

#include "ppsbench/chrony/log_samples.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/utc_time.hpp"

namespace ppsbench::analysis {
namespace {

std::string span_text(std::int64_t first_ns, std::int64_t last_ns) {
    return fmt::format("{} to {}", core::format_utc(first_ns, core::UtcPrecision::seconds),
                       core::format_utc(last_ns, core::UtcPrecision::seconds));
}

std::string log_names(const ChronyLog& log) {
    std::string names;
    for (const auto& path : log.paths) {
        names += (names.empty() ? "" : ", ") + path;
    }
    return names;
}

// Rotated logs are often gzip-compressed; the reader takes text only.
void refuse_compressed(std::ifstream& in, const std::string& path) {
    std::array<char, 2> magic{};
    in.read(magic.data(), magic.size());
    if (in.gcount() == 2 && static_cast<unsigned char>(magic[0]) == 0x1f &&
        static_cast<unsigned char>(magic[1]) == 0x8b) {
        throw core::InputError(fmt::format(
            "--chrony-log {}: gzip-compressed; give it uncompressed (zcat {} > tracking.log.N)",
            path, path));
    }
    in.clear();
    in.seekg(0);
}

}  // namespace

std::shared_ptr<const ChronyLog> read_chrony_log(const std::vector<std::string>& paths) {
    auto log = std::make_shared<ChronyLog>();
    log->paths = paths;
    chrony::TrackingLogReader reader({});
    for (const auto& path : paths) {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            throw core::InputError(fmt::format(
                "--chrony-log {}: cannot be read; name chronyd's tracking.log (chrony.conf: "
                "log tracking)",
                path));
        }
        refuse_compressed(in, path);
        reader.read(in, path);
    }
    log->tracking = reader.finish();
    if (log->tracking.entries.empty()) {
        std::string why;
        if (!log->tracking.problems.empty()) {
            why = "; e.g. " + log->tracking.problems.front().to_string();
        }
        throw core::InputError(
            fmt::format("--chrony-log {}: no tracking.log entry ({} lines read, {} not "
                        "tracking.log's{}); name chronyd's tracking.log",
                        log_names(*log), log->tracking.lines, log->tracking.problem_count, why));
    }
    // Whole files out of order are put in order by the reader; files that overlap (one given
    // twice, or the logs of two chronyd) cannot be: their rows would run backwards.
    if (!log->tracking.overlap.empty()) {
        throw core::InputError(fmt::format(
            "--chrony-log {}: the files overlap ({}); give each of one chronyd's tracking.log "
            "files once",
            log_names(*log), log->tracking.overlap));
    }
    return log;
}

std::optional<chrony::ChronySummary> chrony_from_log(const ChronyLog& log,
                                                     const store::CaptureFile& file,
                                                     std::vector<std::string>& warnings) {
    if (file.run_meta.clock != core::ClockId::realtime) {
        throw core::InputError(fmt::format(
            "--chrony-log: {} is stamped on the {} clock, chronyd's log on UTC (realtime): they "
            "cannot be aligned; drop --chrony-log for it",
            file.path, core::to_string(file.run_meta.clock)));
    }
    if (file.pulses.empty()) {
        throw core::InputError(
            fmt::format("--chrony-log: {} holds no pulse, so no span to take the log's rows "
                        "from; drop --chrony-log for it",
                        file.path));
    }
    const auto [first, last] = std::minmax_element(
        file.pulses.begin(), file.pulses.end(),
        [](const core::Pulse& a, const core::Pulse& b) { return a.timestamp_ns < b.timestamp_ns; });
    const std::int64_t from = first->timestamp_ns;
    const std::int64_t to = last->timestamp_ns;
    const auto& entries = log.tracking.entries;
    const std::int64_t log_from = entries.front().time_ns;
    const std::int64_t log_to = entries.back().time_ns;
    if (to < log_from || from > log_to) {
        throw core::InputError(fmt::format(
            "--chrony-log: {} spans {} UTC, {} spans {} UTC: they do not overlap; give the "
            "tracking.log of the capture's days",
            file.path, span_text(from, to), log_names(log), span_text(log_from, log_to)));
    }
    // tracking.log stamps a row with its whole second (truncated), and chronyd logs an update
    // just after the pulse that made it: the rows of the capture's pulses are those stamped
    // from the second of its first pulse to one second after its last.
    constexpr std::int64_t second = 1'000'000'000;
    const auto samples =
        chrony::tracking_log_samples(log.tracking, from - from % second, to - to % second + second);
    // Past either end by less than the longest wait between two rows is no gap in the log: the
    // next update had not come yet.
    std::int64_t longest_wait = 0;
    for (std::size_t i = 1; i < entries.size(); ++i) {
        longest_wait = std::max(longest_wait, entries[i].time_ns - entries[i - 1].time_ns);
    }
    if (from < log_from - longest_wait || to > log_to + longest_wait) {
        warnings.push_back(fmt::format(
            "{}: spans {} UTC, --chrony-log {} spans {} UTC: chrony's figures cover the overlap "
            "only",
            file.path, span_text(from, to), log_names(log), span_text(log_from, log_to)));
    }
    for (const auto& note : log.tracking.notes) {
        warnings.push_back(fmt::format("--chrony-log: {}", note));
    }
    for (const auto& warning : log.tracking.warnings) {
        warnings.push_back(fmt::format("--chrony-log: {}", warning));
    }
    const auto notes = std::count_if(file.notes.begin(), file.notes.end(),
                                     [](const store::Note& note) { return note.tag == "chrony"; });
    if (notes > 0) {
        warnings.push_back(fmt::format(
            "{}: its {} '# chrony' samples are replaced by the {} tracking.log rows of its span "
            "(--chrony-log)",
            file.path, notes, samples.size()));
    }
    for (const auto& restart : log.tracking.restarts) {
        if (restart.time_ns >= from && restart.time_ns <= to) {
            warnings.push_back(fmt::format(
                "{}: chronyd restarted within it ({}:{}, {}); chrony's RMS offset starts afresh "
                "there, as chronyd's does",
                file.path, restart.file, restart.line, restart.evidence));
        }
    }
    if (samples.empty()) {
        warnings.push_back(fmt::format(
            "{}: --chrony-log {} has no row within its span ({} UTC): chronyd made no clock "
            "update then",
            file.path, log_names(log), span_text(from, to)));
        return std::nullopt;
    }
    return chrony::summarize(samples);
}

}  // namespace ppsbench::analysis
