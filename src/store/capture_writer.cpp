// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/store/capture_writer.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <stdexcept>

#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_file.hpp"
#include "store/capture_lock.hpp"

namespace ppsbench::store {

namespace {

// The writer keeps the one range that the reader accepts, so nothing (an importer reading a log
// dated 2200, a clock gone wrong) writes a file that report then calls damaged.
[[noreturn]] void refuse_timestamp(const std::string& path, std::uint64_t index,
                                   const core::Pulse& pulse) {
    throw core::InputError(fmt::format(
        "{}: pulse {} (sequence {}) has timestamp {} ns, outside 0 … 2^62 − 1 ns (1970 … 2116), "
        "the range a capture file holds; it and the pulses after it were not written",
        path, index, pulse.sequence, pulse.timestamp_ns));
}

constexpr std::size_t max_line = 64;
constexpr std::size_t max_extra_field = 21;  // ',' and an int64 of at most 20 characters

std::string create_error(const std::string& path, int err) {
    switch (err) {
        case EEXIST:
            return fmt::format("{}: file exists; pass --force to overwrite it or choose another -o",
                               path);
        case ENOENT:
            return fmt::format("{}: the directory does not exist; create it or choose another -o",
                               path);
        case EACCES:
        case EPERM:
        case EROFS:
            return fmt::format("{}: cannot create the file ({}); choose a writable -o path", path,
                               core::errno_message(err));
        default:
            return fmt::format("{}: cannot create the file: {}", path, core::errno_message(err));
    }
}

// A write that failed mid-run: what happened, what the file keeps, what to do.
std::string write_error(const std::string& path, int err, std::uint64_t pulses_kept) {
    if (err == EFBIG) {
        // SIGXFSZ is ignored (main), so a file-size limit arrives here instead of killing us.
        return fmt::format(
            "{}: the file-size limit (ulimit -f) was reached while writing; the file keeps every "
            "complete line ({} pulses at most); raise the limit or use --rotate",
            path, pulses_kept);
    }
    return fmt::format(
        "{}: {} while writing; the file keeps every complete line ({} pulses at most); free "
        "space or choose another -o",
        path, err == ENOSPC ? "disk full" : core::errno_message(err), pulses_kept);
}

// Appends one pulse line to buf at pos; returns the new pos. No allocation.
std::size_t format_pulse(char* buf, std::size_t pos, const core::Pulse& pulse) {
    char* out = buf + pos;
    out = std::to_chars(out, out + 20, pulse.sequence).ptr;
    *out++ = ',';
    const std::string_view edge = core::to_string(pulse.edge);
    out = std::copy(edge.begin(), edge.end(), out);
    *out++ = ',';
    out = std::to_chars(out, out + 21, pulse.timestamp_ns).ptr;
    *out++ = '\n';
    return static_cast<std::size_t>(out - buf);
}

// The same with extra integer columns; no allocation.
std::size_t format_row(char* buf, std::size_t pos, const core::Pulse& pulse,
                       std::span<const std::int64_t> extras) {
    pos = format_pulse(buf, pos, pulse) - 1;  // reopen the line before its newline
    char* out = buf + pos;
    for (const std::int64_t value : extras) {
        *out++ = ',';
        out = std::to_chars(out, out + max_extra_field, value).ptr;
    }
    *out++ = '\n';
    return static_cast<std::size_t>(out - buf);
}

// Locks the capture for this writer, then empties what --force replaces. Throws
// core::InputError naming the holder when a run is still writing it: --force never replaces that.
void take_lock_and_truncate(core::UniqueFd& fd, const std::string& path) {
    if (!detail::try_lock_for_writing(fd.get())) {
        const std::string holder = detail::lock_holder(fd.get());
        fd.reset();
        throw core::InputError(fmt::format(
            "{}: {} is still writing this capture; even --force does not replace a capture "
            "being written: choose another -o, or stop that run first",
            path, holder));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        ::ftruncate(fd.get(), 0) != 0) {
        throw core::InputError(
            fmt::format("{}: cannot replace the file: {}", path, core::errno_message(errno)));
    }
}

bool valid_column_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

}  // namespace

CaptureWriter::CaptureWriter(std::string path, const nlohmann::json& meta, bool overwrite)
    : CaptureWriter(std::move(path), meta, overwrite, {}) {}

CaptureWriter::CaptureWriter(std::string path, const nlohmann::json& meta, bool overwrite,
                             const std::vector<std::string>& extra_columns)
    : path_(std::move(path)), extra_columns_(extra_columns.size()) {
    if (extra_columns.size() > max_extra_columns ||
        !std::all_of(extra_columns.begin(), extra_columns.end(), valid_column_name)) {
        throw std::logic_error("CaptureWriter: extra columns must be at most 8 names of [a-z0-9_]");
    }
    std::string header(column_header);
    for (const auto& name : extra_columns) {
        header += ',';
        header += name;
    }
    // The header first: metadata that cannot be written (a label that is not UTF-8) must fail
    // before the file exists, not leave an empty file that blocks the re-run.
    nlohmann::json meta_line = meta;
    meta_line["format"] = format_name;
    std::string meta_text;
    try {
        meta_text = meta_line.dump();
    } catch (const nlohmann::json::exception&) {
        throw core::InputError(fmt::format(
            "{}: the run's metadata holds text that is not UTF-8 (the label?); nothing was "
            "written",
            path_));
    }
    const std::string text = fmt::format("{}\n# meta {}\n{}\n", magic_line, meta_text, header);
    // No O_TRUNC: the file is emptied only once its lock is ours, so a second run with --force
    // cannot empty the first run's capture under it.
    const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? 0 : O_EXCL);
    fd_.reset(::open(path_.c_str(), flags, 0644));
    if (!fd_.valid()) {
        throw core::InputError(create_error(path_, errno));
    }
    take_lock_and_truncate(fd_, path_);
    write_bytes(text);  // throwing, fd_ closes the file as the constructor unwinds
}

CaptureWriter::~CaptureWriter() {
    try {
        close();
    } catch (...) {
        // A destructor must not throw; close() explicitly to learn about a failed sync.
    }
}

void CaptureWriter::write(std::span<const core::Pulse> pulses) {
    if (extra_columns_ != 0) {
        throw std::logic_error("CaptureWriter: this file has extra columns; use write_rows()");
    }
    std::size_t pos = 0;
    std::size_t lines = 0;
    for (const auto& pulse : pulses) {
        if (pos + max_line > buffer_.size() || !core::is_capture_time(pulse.timestamp_ns)) {
            write_bytes({buffer_.data(), pos});
            pulses_written_ += lines;
            pos = 0;
            lines = 0;
            if (!core::is_capture_time(pulse.timestamp_ns)) {
                refuse_timestamp(path_, pulses_written_ + 1, pulse);
            }
        }
        pos = format_pulse(buffer_.data(), pos, pulse);
        ++lines;
    }
    if (pos > 0) {
        write_bytes({buffer_.data(), pos});
        pulses_written_ += lines;
    }
}

void CaptureWriter::write_rows(std::span<const core::Pulse> pulses,
                               std::span<const std::int64_t> extras) {
    if (extras.size() != pulses.size() * extra_columns_) {
        throw std::logic_error("CaptureWriter::write_rows: one value per extra column per pulse");
    }
    const std::size_t row_max = max_line + extra_columns_ * max_extra_field;
    std::size_t pos = 0;
    std::size_t lines = 0;
    for (std::size_t i = 0; i < pulses.size(); ++i) {
        if (pos + row_max > buffer_.size() || !core::is_capture_time(pulses[i].timestamp_ns)) {
            write_bytes({buffer_.data(), pos});
            pulses_written_ += lines;
            pos = 0;
            lines = 0;
            if (!core::is_capture_time(pulses[i].timestamp_ns)) {
                refuse_timestamp(path_, pulses_written_ + 1, pulses[i]);
            }
        }
        pos = format_row(buffer_.data(), pos, pulses[i],
                         extras.subspan(i * extra_columns_, extra_columns_));
        ++lines;
    }
    if (pos > 0) {
        write_bytes({buffer_.data(), pos});
        pulses_written_ += lines;
    }
}

void CaptureWriter::write_note(std::string_view tag, const nlohmann::json& body) {
    write_bytes(fmt::format("# {} {}\n", tag, body.dump()));
}

void CaptureWriter::write_end(const EndRecord& end) {
    write_note("end", to_json(end));
}

void CaptureWriter::write_bytes(std::string_view bytes) {
    if (!fd_.valid()) {
        throw core::MeasurementError(fmt::format("{}: write after close", path_));
    }
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd_.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            const int err = errno;
            if (err == EINTR) {
                continue;  // Ctrl-C during a write: finish the write, the loop stops after
            }
            // Keep every complete line: cut the file after the last newline that made it.
            const std::string_view written = bytes.substr(0, done);
            const auto last_newline = written.rfind('\n');
            const std::size_t keep = last_newline == std::string_view::npos ? 0 : last_newline + 1;
            const auto kept_lines = static_cast<std::uint64_t>(std::count(
                written.begin(), written.begin() + static_cast<std::ptrdiff_t>(keep), '\n'));
            if (::ftruncate(fd_.get(), static_cast<off_t>(bytes_written_ + keep)) != 0) {
                // Nothing more to do: the reader tolerates a torn last line.
            }
            // The kept lines stay: a later write (the end record) cuts back to here, not
            // before them. After the header, every complete line written here is a pulse.
            const bool after_header = bytes_written_ > 0;
            bytes_written_ += keep;
            if (after_header) {
                pulses_written_ += kept_lines;
            }
            throw core::MeasurementError(write_error(path_, err, pulses_written_));
        }
        done += static_cast<std::size_t>(n);
    }
    bytes_written_ += bytes.size();
}

void CaptureWriter::close() {
    if (!fd_.valid()) {
        return;
    }
    // Closed by hand: a failed close means data that did not reach the disk.
    const int fd = fd_.release();
    const bool synced = ::fdatasync(fd) == 0 || errno == EINVAL;  // EINVAL: e.g. a pipe
    const int sync_err = errno;
    const bool closed = ::close(fd) == 0;
    if (!synced || !closed) {
        throw core::MeasurementError(fmt::format("{}: could not be saved to disk: {}", path_,
                                                 core::errno_message(synced ? errno : sync_err)));
    }
}

}  // namespace ppsbench::store
