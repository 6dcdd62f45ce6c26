// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/capture_files.hpp"

#include <fmt/format.h>

#include <array>
#include <ctime>
#include <random>

#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/session/worker_thread.hpp"

namespace ppsbench::session {

namespace {

std::int64_t next_seam(std::int64_t now_ns, core::Duration interval) {
    const std::int64_t step = interval.count();
    return (now_ns / step + 1) * step;
}

}  // namespace

std::string new_rotation_run_id() {
    std::random_device entropy;  // /dev/urandom with libstdc++
    std::string id;
    for (int word = 0; word < 4; ++word) {
        id += fmt::format("{:08x}", static_cast<std::uint32_t>(entropy()));
    }
    return id;
}

std::string rotated_file_name(const std::string& pattern, std::int64_t realtime_ns) {
    const auto seconds = static_cast<std::time_t>(realtime_ns / core::ns_per_second);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    std::string name(pattern.size() + 256, '\0');
    const std::size_t length = std::strftime(name.data(), name.size(), pattern.c_str(), &tm);
    name.resize(length);
    return name;
}

namespace {

// Calendar spans over which a field repeats without the fields above it: %M and %S an hour,
// %H a day, %a and %u a week, %d a month of 28 to 31 days, %U/%W a year of 52 weeks, %m%d and
// %j a year, %y a century. Names that repeat across one of them collide on that day, however
// long the run has gone well (%a with 1d files fails on day 8).
constexpr std::array<std::int64_t, 14> repeat_spans_s{60,
                                                      3'600,
                                                      86'400,
                                                      7 * 86'400,
                                                      28 * 86'400,
                                                      29 * 86'400,
                                                      30 * 86'400,
                                                      31 * 86'400,
                                                      364 * 86'400,
                                                      365 * 86'400,
                                                      366 * 86'400,
                                                      1'461 * 86'400,
                                                      36'524LL * 86'400,
                                                      36'525LL * 86'400};

// "7 days" rather than "168h 00m 00s": the spans are calendar ones.
std::string span_text(std::int64_t ns) {
    constexpr std::int64_t day_ns = 86'400 * core::ns_per_second;
    if (ns % day_ns == 0) {
        const std::int64_t days = ns / day_ns;
        return fmt::format("{} day{}", days, days == 1 ? "" : "s");
    }
    return core::format_duration(core::Duration(ns));
}

// Distinct names for every seam within a century, probed from seams spread over that century
// (leap years, month ends, the turn of a year) at each span above rounded to whole intervals.
void check_rotation_horizon(const std::string& pattern, core::Duration interval) {
    const std::int64_t step = interval.count();
    constexpr std::int64_t century_ns = 36'525LL * 86'400 * core::ns_per_second;
    const std::int64_t start = next_seam(core::realtime_now_ns(), interval);
    for (int probe = 0; probe < 48; ++probe) {
        // 48 starts a little over two years apart, each shifted by a different fraction of a
        // day, so they fall on different hours, weekdays and month ends.
        const std::int64_t offset =
            probe * (century_ns / 48) + probe * 3'607LL * core::ns_per_second;
        std::int64_t seam = 0;
        if (__builtin_add_overflow(start, offset / step * step, &seam)) {
            break;  // a clock set past the year 2200: no century of names ahead to check
        }
        const std::string name = rotated_file_name(pattern, seam);
        for (const std::int64_t span_s : repeat_spans_s) {
            const std::int64_t span = span_s * core::ns_per_second;
            for (const std::int64_t apart : {span / step * step, (span + step - 1) / step * step}) {
                std::int64_t later = 0;
                if (apart < step || apart > century_ns ||
                    __builtin_add_overflow(seam, apart, &later)) {
                    continue;
                }
                if (rotated_file_name(pattern, later) == name) {
                    throw core::UsageError(fmt::format(
                        "-o '{}' gives files {} apart the same name ({}): the later would stop "
                        "the run (or, with --force, replace the earlier); a rotated run's "
                        "pattern must name every seam of a century apart, so add the date "
                        "fields, e.g. -o '{}'",
                        pattern, span_text(apart), name, "ppsbench-%Y%m%dT%H%M%SZ.csv"));
                }
            }
        }
    }
}

}  // namespace

void check_rotation_pattern(const std::string& pattern, core::Duration interval) {
    // At most a month: the seams' names are checked a thousand intervals ahead in int64 ns.
    if (interval < std::chrono::seconds{1} || interval > std::chrono::hours{31 * 24}) {
        throw core::UsageError(fmt::format("--rotate {}: use 1s to 31d (a file a day is usual)",
                                           core::format_duration(interval)));
    }
    if (pattern.find('%') == std::string::npos) {
        throw core::UsageError(fmt::format(
            "--rotate needs a strftime pattern in -o so each file gets its own name, e.g. "
            "-o '{}-%Y%m%dT%H%M%SZ.csv' (got '{}')",
            pattern.empty() ? "ppsbench" : pattern, pattern));
    }
    // Consecutive seams over the next 1000 intervals (six weeks of hourly files): a pattern
    // coarser than the interval repeats a name within its own field's span (day-%Y%m%d with
    // 1h files), whatever the hour the run starts at; one pair, the next two seams, missed it
    // when they fell on either side of midnight.
    std::int64_t seam = next_seam(core::realtime_now_ns(), interval);
    std::string name = rotated_file_name(pattern, seam);
    for (int i = 0; i < 1000; ++i) {
        seam += interval.count();
        std::string next = rotated_file_name(pattern, seam);
        if (next == name) {
            throw core::UsageError(fmt::format(
                "-o '{}' gives two files {} apart the same name ({}); add finer fields such as "
                "%H%M%S",
                pattern, core::format_duration(interval), name));
        }
        name = std::move(next);
    }
    check_rotation_horizon(pattern, interval);
}

CaptureFiles::CaptureFiles(std::string path, store::RunMeta meta, bool overwrite,
                           std::optional<core::Duration> rotate,
                           std::vector<std::string> extra_columns)
    : meta_(std::move(meta)),
      overwrite_(overwrite),
      rotate_(rotate),
      extra_columns_(std::move(extra_columns)),
      pattern_(std::move(path)) {
    if (!rotate_) {
        paths_.push_back(pattern_);
        writer_ =
            std::make_unique<store::CaptureWriter>(pattern_, meta_, overwrite_, extra_columns_);
        return;
    }
    const std::int64_t now = core::realtime_now_ns();
    next_seam_ns_ = next_seam(now, *rotate_);
    paths_.push_back(rotated_file_name(pattern_, now));
    store::RunMeta file_meta = meta_;
    // A run id given by the caller (both paths of a two-path run share one), else a new one.
    run_id_ = meta_.rotation && !meta_.rotation->run_id.empty() ? meta_.rotation->run_id
                                                                : new_rotation_run_id();
    file_meta.rotation =
        store::Rotation{.run_id = run_id_, .index = 0, .interval = *rotate_, .previous_file = {}};
    writer_ = std::make_unique<store::CaptureWriter>(paths_.back(), file_meta, overwrite_,
                                                     extra_columns_);
}

CaptureFiles::~CaptureFiles() {
    try {
        close();
    } catch (...) {
        // finish() reports a failing disk; a destructor must not end the process.
    }
}

void CaptureFiles::write(std::span<const core::Pulse> pulses) {
    const std::lock_guard lock(mutex_);
    try {
        cross_seam_locked(pulses);
    } catch (const core::MeasurementError&) {
        // The seam failed: the batch that crossed it goes to the file still open, which the
        // run's end record then closes. It is never left in no file.
        writer_->write(pulses);
        throw;
    }
    writer_->write(pulses);
}

void CaptureFiles::write_rows(std::span<const core::Pulse> pulses,
                              std::span<const std::int64_t> extras) {
    const std::lock_guard lock(mutex_);
    try {
        cross_seam_locked(pulses);
    } catch (const core::MeasurementError&) {
        writer_->write_rows(pulses, extras);  // as write(): the crossing batch is kept
        throw;
    }
    writer_->write_rows(pulses, extras);
}

void CaptureFiles::cross_seam_locked(std::span<const core::Pulse> pulses) {
    if (rotate_ && !pulses.empty()) {
        // One clock read per batch: the first batch that arrives past the seam starts the next
        // file. A file is opened only for a pulse to put in it, so a run that ends just after
        // a seam leaves no empty file behind (opening it after the batch did, under load). The
        // same holds at the start: the first file is opened with the run (a crash before the
        // first pulse still leaves its header), and a run started just before a seam, whose
        // first pulse comes after it, keeps that file until the next seam rather than leaving
        // it empty.
        const std::int64_t now = core::realtime_now_ns();
        if (now >= next_seam_ns_) {
            if (writer_->pulses_written() == 0) {
                next_seam_ns_ = next_seam(now, *rotate_);
            } else {
                rotate_locked(now);
            }
        }
    }
}

void CaptureFiles::rotate_locked(std::int64_t now_ns) {
    // Open the next file first: if that fails, nothing has moved and the current file, with
    // every pulse so far, is finished as the run's last.
    const std::size_t index = paths_.size();
    std::string next_path = rotated_file_name(pattern_, now_ns);
    store::RunMeta file_meta = meta_;
    file_meta.start_realtime_ns = now_ns;
    file_meta.rotation = store::Rotation{
        .run_id = run_id_, .index = index, .interval = *rotate_, .previous_file = paths_.back()};
    std::unique_ptr<store::CaptureWriter> next;
    try {
        next = std::make_unique<store::CaptureWriter>(next_path, file_meta, overwrite_,
                                                      extra_columns_);
    } catch (const core::InputError& e) {
        // Mid-run this is a failed measurement, not bad input: the run stops here and the
        // current file, which has every pulse so far, still gets the run's end record.
        throw core::MeasurementError(
            fmt::format("{}; the run stopped at this --rotate seam, every pulse so far is in {}",
                        e.what(), paths_.back()));
    }

    join_closer();
    std::unique_ptr<store::CaptureWriter> old = std::move(writer_);
    writer_ = std::move(next);
    pulses_before_ += old->pulses_written();
    paths_.push_back(std::move(next_path));
    next_seam_ns_ = next_seam(now_ns, *rotate_);
    store::EndRecord end;
    end.stop_reason = store::StopReason::rotated;
    end.pulses = pulses_before_;  // the run's so far, as the last file's end counts the run's
    end.end_realtime_ns = now_ns;
    end.rotation = store::RotatedFileEnd{
        .pulses_in_file = old->pulses_written(), .next_file = paths_.back(), .files = {}};
    // A worker thread: the stop signals stay with the capture thread.
    closer_ = start_worker_thread([this, old = std::move(old), end = std::move(end)]() mutable {
        try {
            old->write_end(end);
            old->close();
        } catch (const std::exception& e) {
            closer_error_ = e.what();  // read after join
        }
    });
}

void CaptureFiles::join_closer() {
    if (closer_.joinable()) {
        closer_.join();
    }
    if (!closer_error_.empty()) {
        throw core::MeasurementError(closer_error_);
    }
}

void CaptureFiles::write_note(std::string_view tag, const nlohmann::json& body) {
    const std::lock_guard lock(mutex_);
    writer_->write_note(tag, body);
}

void CaptureFiles::finish(store::EndRecord end) {
    const std::lock_guard lock(mutex_);
    if (rotate_) {
        // "pulses" and the other counts are the whole run's; this file's share is here.
        end.rotation = store::RotatedFileEnd{
            .pulses_in_file = writer_->pulses_written(), .next_file = {}, .files = paths_.size()};
    }
    writer_->write_end(end);
    writer_->close();
    join_closer();
}

void CaptureFiles::close() {
    const std::lock_guard lock(mutex_);
    writer_->close();
    if (closer_.joinable()) {
        closer_.join();
    }
}

std::uint64_t CaptureFiles::pulses_written() const {
    const std::lock_guard lock(mutex_);
    return pulses_before_ + writer_->pulses_written();
}

}  // namespace ppsbench::session
