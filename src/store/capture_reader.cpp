// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/packed_capture_reader.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <utility>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/unique_fd.hpp"
#include "store/capture_lock.hpp"
#include "store/capture_parser.hpp"

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

// Feeds the whole file to `parser`, block by block.
void parse_blocks(int in, const std::string& path, detail::CaptureParser& parser) {
    constexpr std::size_t block_size = 1 << 20;
    std::string block(block_size, '\0');
    std::size_t carried = 0;  // bytes of an unfinished line at the front of `block`
    for (;;) {
        if (carried == block.size()) {
            block.resize(block.size() * 2);  // a line longer than a block (a huge meta line)
        }
        const ssize_t n = ::read(in, block.data() + carried, block.size() - carried);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw core::InputError(
                fmt::format("{}: read failed: {}", path, core::errno_message(errno)));
        }
        if (n == 0) {
            parser.finish(std::string_view(block.data(), carried));
            break;
        }
        const std::string_view text(block.data(), carried + static_cast<std::size_t>(n));
        const std::string_view tail = parser.feed(text);
        std::copy(tail.begin(), tail.end(), block.begin());
        carried = tail.size();
    }
}

// ~35 bytes a line: reserving up front avoids the vector's doubling peaks.
constexpr std::size_t bytes_a_line = 32;

}  // namespace

CaptureFile read_capture_file(const std::string& path) {
    CaptureFile file;
    file.path = path;
    const auto [in, size] = open_capture(file, path);
    file.pulses.reserve(size / bytes_a_line);
    detail::CaptureParser parser(file);
    parse_blocks(in.get(), path, parser);
    return file;
}

PackedCapture read_packed_capture(const std::string& path) {
    PackedCapture capture;
    capture.file.path = path;
    const auto [in, size] = open_capture(capture.file, path);
    capture.pulses.reserve(size / bytes_a_line);
    detail::CaptureParser parser(capture.file, capture.pulses);
    parse_blocks(in.get(), path, parser);
    return capture;
}

}  // namespace ppsbench::store
