// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/input.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/unique_fd.hpp"

namespace ppsbench::import {

// A .gz (logrotate's, detected by its magic bytes, not by its name) is inflated member by
// member, as gzip -d does, so that `cat a.gz b.gz` reads as one text. zlib's gzread would do the
// same but silently drops whatever follows the last member ("trailing garbage": a plain log
// appended to a .gz, zero padding from a copy); inflating here lets the end of every member be
// seen, and what follows it counted and reported (trailing_data()). Plain files pass through.
class Input::Buffer final : public std::streambuf {
  public:
    Buffer(const std::string& name, int fd) : name_(name), fd_(fd) {
        raw_.resize(raw_size);
        data_.resize(head_size);
        std::size_t filled = 0;
        while (filled < data_.size()) {
            const std::size_t n = produce(data_.data() + filled, data_.size() - filled);
            if (n == 0) {
                break;
            }
            filled += n;
        }
        head_size_ = filled;
        setg(data_.data(), data_.data(), data_.data() + filled);
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    std::string_view head() const { return {data_.data(), head_size_}; }
    const std::optional<TrailingData>& trailing_data() const { return trailing_; }

  protected:
    int_type underflow() override {
        if (gptr() < egptr()) {
            return traits_type::to_int_type(*gptr());
        }
        const std::size_t n = produce(data_.data(), data_.size());
        if (n == 0) {
            return traits_type::eof();
        }
        setg(data_.data(), data_.data(), data_.data() + n);
        return traits_type::to_int_type(*gptr());
    }

  private:
    static constexpr std::size_t raw_size = 128 * 1024;

    // zlib's state, ended by its destructor: the head is read in the constructor, and when
    // that throws (a damaged stream) no destructor of Buffer runs, but its members' do.
    struct Inflater {
        z_stream stream{};
        bool started = false;
        Inflater() = default;
        Inflater(const Inflater&) = delete;
        Inflater& operator=(const Inflater&) = delete;
        ~Inflater() {
            if (started) {
                ::inflateEnd(&stream);
            }
        }
    };

    std::size_t available() const { return raw_end_ - raw_pos_; }

    // Moves what is left of the raw buffer to its front and reads more after it.
    void refill() {
        if (raw_eof_) {
            return;
        }
        if (raw_pos_ > 0) {
            std::memmove(raw_.data(), raw_.data() + raw_pos_, available());
            raw_offset_ += raw_pos_;
            raw_end_ -= raw_pos_;
            raw_pos_ = 0;
        }
        for (;;) {
            const ssize_t n = ::read(fd_.get(), raw_.data() + raw_end_, raw_.size() - raw_end_);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0) {
                throw core::InputError(
                    fmt::format("{}: cannot read: {}", name_, core::errno_message(errno)));
            }
            raw_eof_ = n == 0;
            raw_end_ += static_cast<std::size_t>(n);
            return;
        }
    }

    bool at_gzip_magic() {
        while (available() < 2 && !raw_eof_) {
            refill();
        }
        return available() >= 2 && raw_[raw_pos_] == 0x1f && raw_[raw_pos_ + 1] == 0x8b;
    }

    [[noreturn]] void damaged(const char* why) const {
        throw core::InputError(
            fmt::format("{}: {}; the file is damaged or was cut off (a .gz must be complete: "
                        "check it with 'gzip -t')",
                        name_, why));
    }

    // Up to `size` bytes of text into `into`; 0 at the end.
    std::size_t produce(char* into, std::size_t size) {
        const std::size_t n = gzip_ ? inflate_into(into, size) : copy_into(into, size);
        lines_ += static_cast<std::size_t>(std::count(into, into + n, '\n'));
        if (n > 0) {
            ended_with_newline_ = into[n - 1] == '\n';
        }
        return n;
    }

    std::size_t copy_into(char* into, std::size_t size) {
        if (!decided_) {
            decided_ = true;
            if (at_gzip_magic()) {
                gzip_ = true;
                if (::inflateInit2(&inflater_.stream, 15 + 16) != Z_OK) {
                    throw core::InputError(fmt::format("{}: cannot read: out of memory", name_));
                }
                inflater_.started = true;
                return inflate_into(into, size);
            }
        }
        if (available() == 0) {
            refill();
        }
        const std::size_t n = std::min(size, available());
        std::memcpy(into, raw_.data() + raw_pos_, n);
        raw_pos_ += n;
        return n;
    }

    std::size_t inflate_into(char* into, std::size_t size) {
        auto& z = inflater_.stream;
        while (!finished_) {
            if (!in_member_) {
                const bool magic = at_gzip_magic();
                if (available() == 0) {
                    finished_ = true;
                    break;
                }
                if (!magic) {
                    count_trailing_data();
                    break;
                }
                ::inflateReset(&z);
                in_member_ = true;
            }
            if (available() == 0) {
                if (raw_eof_) {
                    damaged("unexpected end of file");
                }
                refill();
                continue;
            }
            z.next_in = raw_.data() + raw_pos_;
            z.avail_in = static_cast<uInt>(available());
            z.next_out = reinterpret_cast<Bytef*>(into);
            z.avail_out = static_cast<uInt>(size);
            const int code = ::inflate(&z, Z_NO_FLUSH);
            raw_pos_ = static_cast<std::size_t>(z.next_in - raw_.data());
            const std::size_t produced = size - z.avail_out;
            if (code == Z_STREAM_END) {
                in_member_ = false;
            } else if (code != Z_OK && code != Z_BUF_ERROR) {
                damaged(z.msg != nullptr ? z.msg : "not a valid gzip stream");
            } else if (code == Z_BUF_ERROR && available() == 0 && raw_eof_) {
                damaged("unexpected end of file");
            }
            if (produced > 0) {
                return produced;
            }
        }
        return 0;
    }

    // What follows the last member is counted to the end (nothing is kept) and not read. Zeros
    // alone are padding (a copy to a block device, a preallocated file): gzip -d ignores them
    // without a word, and so do we, as they hold no line.
    void count_trailing_data() {
        // The line after the text's last (which, without a final newline, is one not counted).
        TrailingData t{raw_offset_ + raw_pos_, 0, lines_ + (ended_with_newline_ ? 1 : 2)};
        bool zeros = true;
        for (;;) {
            t.bytes += available();
            zeros = zeros && std::all_of(raw_.data() + raw_pos_, raw_.data() + raw_end_,
                                         [](unsigned char c) { return c == 0; });
            raw_pos_ = raw_end_;
            if (raw_eof_) {
                break;
            }
            refill();
        }
        if (!zeros) {
            trailing_ = t;
        }
        finished_ = true;
    }

    std::string name_;
    core::UniqueFd fd_;
    Inflater inflater_;
    std::vector<unsigned char> raw_;
    std::size_t raw_pos_ = 0;
    std::size_t raw_end_ = 0;
    std::uint64_t raw_offset_ = 0;  // bytes of the file before raw_[0]
    bool raw_eof_ = false;
    bool decided_ = false;  // plain or gzip, from the first two bytes
    bool gzip_ = false;
    bool in_member_ = false;
    bool finished_ = false;
    std::size_t lines_ = 0;           // newlines delivered so far
    bool ended_with_newline_ = true;  // of the text delivered so far (none: line 1 is next)
    std::optional<TrailingData> trailing_;
    std::vector<char> data_;
    std::size_t head_size_ = 0;
};

namespace {

int open_fd(const std::string& path) {
    if (path == "-") {
        const int fd = ::dup(STDIN_FILENO);
        if (fd < 0) {
            throw core::InputError(
                fmt::format("-: cannot read standard input: {}", core::errno_message(errno)));
        }
        return fd;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw core::InputError(
            fmt::format("{}: cannot open: {}; check the path", path, core::errno_message(errno)));
    }
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ::close(fd);
        throw core::InputError(fmt::format("{}: is a directory; name a log file", path));
    }
    return fd;
}

}  // namespace

Input::Input(std::string path)
    : name_(path == "-" ? "(stdin)" : path),
      buffer_(std::make_unique<Buffer>(name_, open_fd(path))),
      stream_(buffer_.get()) {
    // istream swallows a streambuf's exception unless badbit is in its mask; then it rethrows
    // ours, so a damaged .gz stops the import with its own message.
    stream_.exceptions(std::ios::badbit);
}

Input::~Input() = default;

std::string_view Input::head() const {
    return buffer_->head();
}

const std::optional<TrailingData>& Input::trailing_data() const {
    return buffer_->trailing_data();
}

std::string TrailingData::to_string() const {
    return fmt::format(
        "{} byte{} after the end of the gzip data (from byte {} of the file) {} not a gzip member "
        "and {} not read (gzip -d ignores {} too: 'trailing garbage ignored')",
        bytes, bytes == 1 ? "" : "s", at_byte, bytes == 1 ? "is" : "are",
        bytes == 1 ? "was" : "were", bytes == 1 ? "it" : "them");
}

}  // namespace ppsbench::import
