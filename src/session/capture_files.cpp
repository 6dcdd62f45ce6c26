#include "ppsbench/session/capture_files.hpp"

#include <fmt/format.h>
#include <ctime>

#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::session {

namespace {

std::int64_t next_seam(std::int64_t now_ns, core::Duration interval) {
    const std::int64_t step = interval.count();
    return (now_ns / step + 1) * step;
}

std::string utc_time(std::int64_t ns) {
    const auto seconds = static_cast<std::time_t>(ns / core::ns_per_second);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

}  // namespace

std::string rotated_file_name(const std::string& pattern, std::int64_t realtime_ns) {
    const auto seconds = static_cast<std::time_t>(realtime_ns / core::ns_per_second);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    std::string name(pattern.size() + 256, '\0');
    const std::size_t length = std::strftime(name.data(), name.size(), pattern.c_str(), &tm);
    name.resize(length);
    return name;
}

void check_rotation_pattern(const std::string& pattern, core::Duration interval) {
    if (interval < std::chrono::seconds{1}) {
        throw core::UsageError(
            fmt::format("--rotate {}: use at least 1s", core::format_duration(interval)));
    }
    if (pattern.find('%') == std::string::npos) {
        throw core::UsageError(fmt::format(
            "--rotate needs a strftime pattern in -o so each file gets its own name, e.g. "
            "-o '{}-%Y%m%dT%H%M%SZ.csv' (got '{}')",
            pattern.empty() ? "ppsbench" : pattern, pattern));
    }
    const std::int64_t first = next_seam(core::realtime_now_ns(), interval);
    const std::int64_t second = first + interval.count();
    if (rotated_file_name(pattern, first) == rotated_file_name(pattern, second)) {
        throw core::UsageError(fmt::format(
            "-o '{}' gives two files {} apart the same name ({}); add finer fields such as "
            "%H%M%S",
            pattern, core::format_duration(interval), rotated_file_name(pattern, first)));
    }
}

CaptureFiles::CaptureFiles(std::string path, nlohmann::json meta, bool overwrite,
                           std::optional<core::Duration> rotate)
    : meta_(std::move(meta)), overwrite_(overwrite), rotate_(rotate), pattern_(std::move(path)) {
    if (!rotate_) {
        paths_.push_back(pattern_);
        writer_ = std::make_unique<store::CaptureWriter>(pattern_, meta_, overwrite_);
        return;
    }
    const std::int64_t now = core::realtime_now_ns();
    next_seam_ns_ = next_seam(now, *rotate_);
    paths_.push_back(rotated_file_name(pattern_, now));
    nlohmann::json file_meta = meta_;
    file_meta["rotation"] = {{"index", 0}, {"interval_ns", rotate_->count()}};
    writer_ = std::make_unique<store::CaptureWriter>(paths_.back(), file_meta, overwrite_);
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
    writer_->write(pulses);
    if (rotate_) {
        // One clock read per batch: the seam is crossed after the batch that arrived past it.
        const std::int64_t now = core::realtime_now_ns();
        if (now >= next_seam_ns_) {
            rotate_locked(now);
        }
    }
}

void CaptureFiles::rotate_locked(std::int64_t now_ns) {
    // Open the next file first: if that fails, the current one keeps receiving pulses.
    const std::size_t index = paths_.size();
    std::string next_path = rotated_file_name(pattern_, now_ns);
    nlohmann::json file_meta = meta_;
    file_meta["start_time"] = utc_time(now_ns);
    file_meta["start_realtime_ns"] = now_ns;
    file_meta["rotation"] = {
        {"index", index}, {"interval_ns", rotate_->count()}, {"previous_file", paths_.back()}};
    auto next = std::make_unique<store::CaptureWriter>(next_path, file_meta, overwrite_);

    join_closer();
    std::unique_ptr<store::CaptureWriter> old = std::move(writer_);
    writer_ = std::move(next);
    pulses_before_ += old->pulses_written();
    paths_.push_back(std::move(next_path));
    next_seam_ns_ = next_seam(now_ns, *rotate_);
    nlohmann::json end = {{"stop_reason", "rotated"},
                          {"pulses_in_file", old->pulses_written()},
                          {"next_file", paths_.back()},
                          {"end_time", utc_time(now_ns)}};
    closer_ = std::thread([this, old = std::move(old), end = std::move(end)]() mutable {
        try {
            old->write_note("end", end);
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

void CaptureFiles::finish(const nlohmann::json& end) {
    const std::lock_guard lock(mutex_);
    nlohmann::json last = end;
    if (rotate_) {
        // "pulses" and the other counts are the whole run's; this file's share is here.
        last["files"] = paths_.size();
        last["pulses_in_file"] = writer_->pulses_written();
    }
    writer_->write_note("end", last);
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
