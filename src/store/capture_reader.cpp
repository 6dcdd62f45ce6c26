// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/packed_capture_reader.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <memory>
#include <thread>
#include <utility>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/unique_fd.hpp"
#include "store/capture_lock.hpp"
#include "store/capture_parser.hpp"
#include "store/capture_reading.hpp"
#include "store/parallel_body.hpp"

namespace ppsbench::store {

CaptureFile parse_capture_text(std::string_view text, const std::string& path) {
    CaptureFile file;
    file.path = path;
    detail::CaptureParser parser(file);
    parser.finish(parser.feed(text));
    return file;
}

namespace {

// Opens `path` for reading, refusing a directory; sets file.writer when a run still writes it.
// Returns the descriptor and the file's size (0 when not a regular file).
std::pair<core::UniqueFd, std::size_t> open_capture(CaptureFile& file, const std::string& path) {
    core::UniqueFd in(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!in.valid()) {
        const int err = errno;
        throw core::InputError(fmt::format(
            "{}: cannot open: {}{}", path, core::errno_message(err),
            err == ENOENT ? "; check the path (capture files come from 'ppsbench run -o')" : ""));
    }
    if (detail::is_being_written(in.get())) {
        file.writer = detail::lock_holder(in.get());
    }
    std::size_t size = 0;
    struct stat st {};
    if (::fstat(in.get(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            throw core::InputError(fmt::format("{}: is a directory; name a capture file", path));
        }
        if (S_ISREG(st.st_mode) && st.st_size > 0) {
            size = static_cast<std::size_t>(st.st_size);
        }
    }
    return {std::move(in), size};
}

// The pulses a body of `body_bytes` will hold, at the length of the pulse lines at the end of
// `text` (the body as far as the first block read it), so that the arrays do not grow by
// doubling. Later lines are seldom shorter (sequence numbers only gain digits), so this errs on
// the high side, which costs address space only: pages never written are never resident.
std::size_t expected_pulses(std::string_view text, std::size_t body_bytes) {
    constexpr std::size_t sample_bytes = 64 << 10;
    text = text.substr(0, text.rfind('\n') + 1);  // the complete lines (none: empty)
    if (text.size() > sample_bytes) {
        text.remove_prefix(text.size() - sample_bytes);
        text.remove_prefix(text.find('\n') + 1);
    }
    std::size_t lines = 0;
    std::size_t bytes = 0;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t next = text.find('\n', start) + 1;
        if (text[start] != '#') {  // notes and comments are not pulses
            ++lines;
            bytes += next - start;
        }
        start = next;
    }
    return lines == 0 ? 0 : body_bytes / bytes * lines + body_bytes % bytes * lines / bytes + 1;
}

// Feeds the whole file to `parser`, block by block; a big regular file's body on two threads
// (parallel_body.hpp).
void parse_file(int in, std::size_t size, const std::string& path, detail::CaptureParser& parser) {
    std::size_t room = std::size_t{1} << 20;
    auto block = std::make_unique_for_overwrite<char[]>(room);  // read() fills what counts
    std::size_t carried = 0;  // bytes of an unfinished line at the front of `block`
    std::size_t offset = 0;   // the file offset after the bytes read
    for (;;) {
        if (carried == room) {
            // A line longer than a block (a huge meta line).
            auto bigger = std::make_unique_for_overwrite<char[]>(room * 2);
            std::copy(block.get(), block.get() + carried, bigger.get());
            block = std::move(bigger);
            room *= 2;
        }
        // The header in small reads: a big file's body is read afresh by the two threads, and
        // each page the first block touches costs a fault.
        constexpr std::size_t header_read = 64 << 10;
        const std::size_t want =
            parser.in_body() ? room - carried : std::min(room - carried, header_read);
        const ssize_t n = ::read(in, block.get() + carried, want);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw core::InputError(
                fmt::format("{}: read failed: {}", path, core::errno_message(errno)));
        }
        if (n == 0) {
            parser.finish(std::string_view(block.get(), carried));
            break;
        }
        offset += static_cast<std::size_t>(n);
        std::string_view text(block.get(), carried + static_cast<std::size_t>(n));
        if (!parser.in_body()) {
            text = parser.feed_header(text);
            if (parser.in_body()) {
                const std::size_t body = offset - text.size();
                parser.reserve(expected_pulses(text, size > body ? size - body : 0));
                if (parser.options().two_threads &&
                    size >= body + parser.options().two_thread_bytes &&
                    std::thread::hardware_concurrency() != 1) {
                    offset = detail::parse_body_on_two_threads(in, body, size, parser);
                    if (::lseek(in, static_cast<off_t>(offset), SEEK_SET) < 0) {
                        throw core::InputError(
                            fmt::format("{}: read failed: {}", path, core::errno_message(errno)));
                    }
                    carried = 0;
                    continue;
                }
            }
        }
        const std::string_view tail = parser.feed(text);
        std::copy(tail.begin(), tail.end(), block.get());
        carried = tail.size();
    }
}

}  // namespace

void detail::read_capture_into(CaptureFile& file, CaptureParser& parser) {
    const auto [in, size] = open_capture(file, file.path);
    parse_file(in.get(), size, file.path, parser);
}

CaptureFile read_capture_file(const std::string& path) {
    CaptureFile file;
    file.path = path;
    detail::CaptureParser parser(file);
    detail::read_capture_into(file, parser);
    return file;
}

PackedCapture read_packed_capture(const std::string& path) {
    PackedCapture capture;
    capture.file.path = path;
    detail::CaptureParser parser(capture.file, &capture.pulses);
    detail::read_capture_into(capture.file, parser);
    return capture;
}

}  // namespace ppsbench::store
