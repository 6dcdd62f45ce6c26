// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/input.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <memory>
#include <vector>

#include "ppsbench/core/error.hpp"

namespace ppsbench::import {

// zlib's gzread reads gzip members and, transparently, plain files, so one path serves both
// (and concatenated .gz members, as `cat a.gz b.gz` makes them).
class Input::Buffer final : public std::streambuf {
  public:
    Buffer(const std::string& name, int fd) : name_(name), file_(::gzdopen(fd, "rb")) {
        if (file_ == nullptr) {
            ::close(fd);
            throw core::InputError(fmt::format("{}: cannot read: out of memory", name));
        }
        ::gzbuffer(file_.get(), 128 * 1024);
        data_.resize(head_size);
        std::size_t filled = 0;
        while (filled < data_.size()) {
            const std::size_t n = read(data_.data() + filled, data_.size() - filled);
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

  protected:
    int_type underflow() override {
        if (gptr() < egptr()) {
            return traits_type::to_int_type(*gptr());
        }
        const std::size_t n = read(data_.data(), data_.size());
        if (n == 0) {
            return traits_type::eof();
        }
        setg(data_.data(), data_.data(), data_.data() + n);
        return traits_type::to_int_type(*gptr());
    }

  private:
    std::size_t read(char* into, std::size_t size) {
        const int n = ::gzread(file_.get(), into, static_cast<unsigned>(size));
        int code = Z_OK;
        const char* message = ::gzerror(file_.get(), &code);
        // A gzip stream cut off is no -1 from gzread (it could still be growing): Z_BUF_ERROR
        // at the end says so.
        if (n < 0 || (n == 0 && code == Z_BUF_ERROR)) {
            throw core::InputError(fmt::format(
                "{}: {}; the file is damaged or was cut off (a .gz must be complete: check it "
                "with 'gzip -t')",
                name_, code == Z_ERRNO ? core::errno_message(errno) : std::string(message)));
        }
        return static_cast<std::size_t>(n);
    }

    struct GzClose {
        void operator()(gzFile file) const { ::gzclose(file); }
    };

    std::string name_;
    // Owned from the first line of the constructor: reading the head may throw (a damaged
    // stream), and then no destructor runs to close it.
    std::unique_ptr<gzFile_s, GzClose> file_;
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

}  // namespace ppsbench::import
