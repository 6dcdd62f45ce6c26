// SPDX-License-Identifier: GPL-2.0-or-later
#include "store/parallel_body.hpp"

#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

namespace ppsbench::store::detail {

namespace {

// Read past a block's end to find where its last line ends (more when that is not enough).
constexpr std::size_t block_overhang = 4096;
constexpr std::size_t no_offset = ~std::size_t{0};

// One thread's block of the body: the bytes read for it and what they parse into, reused block
// after block.
class BodyBlockReader {
  public:
    BodyBlockReader(int fd, std::size_t start, std::size_t end, std::size_t block_bytes,
                    BodyParser parser)
        : fd_(fd), start_(start), end_(end), block_bytes_(block_bytes), parser_(parser) {}

    // Reads and parses block k: the complete lines that start in [start + k·size, + size).
    // False when it could not (a read that failed or came short, a malformed line).
    bool parse(std::size_t k) noexcept;
    bool empty() const { return first_ == last_; }
    std::size_t first() const { return first_; }  // the file offset of its first line
    std::size_t last() const { return last_; }    // and of the byte after its last
    BodyBlock& parsed() { return parsed_; }

  private:
    bool read_to(std::size_t to);
    // The offset after the first '\n' at `from` or later in the bytes read; no_offset if none.
    std::size_t line_start_after(std::size_t from) const {
        const char* const bytes = bytes_.get();
        const void* newline = std::memchr(bytes + (from - read_from_), '\n', read_to_ - from);
        return newline == nullptr
                   ? no_offset
                   : static_cast<std::size_t>(static_cast<const char*>(newline) - bytes) +
                         read_from_ + 1;
    }
    std::size_t block_end(std::size_t first, std::size_t high);

    int fd_;
    std::size_t start_;
    std::size_t end_;
    std::size_t block_bytes_;
    BodyParser parser_;
    std::unique_ptr<char[]> bytes_;  // the file's bytes from read_from_ to read_to_
    std::size_t room_ = 0;
    std::size_t read_from_ = 0;
    std::size_t read_to_ = 0;
    std::size_t first_ = 0;
    std::size_t last_ = 0;
    BodyBlock parsed_;
};

bool BodyBlockReader::parse(std::size_t k) noexcept {
    first_ = last_ = 0;
    try {
        const std::size_t low = start_ + k * block_bytes_;
        const std::size_t high = std::min(end_, low + block_bytes_);
        // The byte before the block too: whether a line starts at its first byte.
        read_from_ = read_to_ = k == 0 ? low : low - 1;
        if (!read_to(std::min(end_, high + block_overhang))) {
            return false;
        }
        const std::size_t first = k == 0 ? low : line_start_after(low - 1);
        if (first == no_offset || first >= high) {
            return true;  // a line from an earlier block covers this one
        }
        const std::size_t last = block_end(first, high);
        if (last == no_offset) {
            return false;
        }
        first_ = first;
        last_ = last;
        if (first < last) {
            const std::string_view text(bytes_.get() + (first - read_from_), last - first);
            parser_.parse(text, 0, parsed_);  // the line numbers come with the commit
        }
        return true;
    } catch (...) {
        return false;  // the one-thread reader will meet it again, with the line's number
    }
}

// The end of the block's last line, the one with the first '\n' at high - 1 or later; at the
// end of the body, the end of its last complete line. no_offset when the file came short.
std::size_t BodyBlockReader::block_end(std::size_t first, std::size_t high) {
    std::size_t last = line_start_after(high - 1);
    while (last == no_offset && read_to_ < end_) {
        const std::size_t more = std::max(block_overhang, read_to_ - read_from_);
        if (!read_to(std::min(end_, read_to_ + more))) {
            return no_offset;
        }
        last = line_start_after(high - 1);
    }
    if (last != no_offset) {
        return last;
    }
    const char* const begin = bytes_.get() + (first - read_from_);
    const char* p = bytes_.get() + (read_to_ - read_from_);
    while (p != begin && p[-1] != '\n') {
        --p;
    }
    return static_cast<std::size_t>(p - bytes_.get()) + read_from_;
}

bool BodyBlockReader::read_to(std::size_t to) {
    if (room_ < to - read_from_) {
        // Not zeroed first (pread fills what counts); the bytes read so far move over.
        auto more = std::make_unique_for_overwrite<char[]>(to - read_from_);
        std::copy(bytes_.get(), bytes_.get() + (read_to_ - read_from_), more.get());
        bytes_ = std::move(more);
        room_ = to - read_from_;
    }
    while (read_to_ < to) {
        const ssize_t n = ::pread(fd_, bytes_.get() + (read_to_ - read_from_), to - read_to_,
                                  static_cast<off_t>(read_to_));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;  // an error, or the file got shorter: read on sequentially from here
        }
        read_to_ += static_cast<std::size_t>(n);
    }
    return true;
}

// What the two threads share. Blocks are taken in order (`next`) and committed in order
// (`turn`: the block whose commit is due); the thread whose turn it is owns the rest.
struct BodyWork {
    explicit BodyWork(CaptureParser& p, std::size_t start, std::size_t blocks)
        : parser(p), blocks(blocks), resume(start) {}
    CaptureParser& parser;
    const std::size_t blocks;
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> turn{0};
    std::atomic<bool> stopped{false};  // a block was not committed: the rest is not either
    std::size_t resume;                // the offset after the last line committed
    std::exception_ptr error;          // a commit that threw (out of memory)
};

void take_body_blocks(BodyWork& work, BodyBlockReader& reader) noexcept {
    for (;;) {
        const std::size_t k = work.next.fetch_add(1, std::memory_order_relaxed);
        if (k >= work.blocks) {
            return;
        }
        const bool parsed = !work.stopped.load(std::memory_order_relaxed) && reader.parse(k);
        for (std::size_t t = work.turn.load(std::memory_order_acquire); t != k;
             t = work.turn.load(std::memory_order_acquire)) {
            work.turn.wait(t, std::memory_order_acquire);
        }
        if (!work.stopped.load(std::memory_order_relaxed)) {
            // A block must start where the last one ended, unless the file changed meanwhile.
            if (!parsed || (!reader.empty() && reader.first() != work.resume)) {
                work.stopped.store(true, std::memory_order_relaxed);
            } else if (!reader.empty()) {
                try {
                    work.parser.commit(reader.parsed());
                    work.resume = reader.last();
                } catch (...) {
                    work.error = std::current_exception();
                    work.stopped.store(true, std::memory_order_relaxed);
                }
            }
        }
        work.turn.store(k + 1, std::memory_order_release);
        work.turn.notify_all();
    }
}

}  // namespace

std::size_t parse_body_on_two_threads(int fd, std::size_t start, std::size_t end,
                                      CaptureParser& parser) {
    const std::size_t block_bytes = std::max<std::size_t>(parser.options().block_bytes, 1);
    BodyWork work(parser, start, (end - start + block_bytes - 1) / block_bytes);
    BodyBlockReader mine(fd, start, end, block_bytes, parser.body_parser());
    BodyBlockReader theirs(fd, start, end, block_bytes, parser.body_parser());
    std::thread helper;
    try {
        helper = std::thread([&work, &theirs] { take_body_blocks(work, theirs); });
    } catch (const std::system_error&) {
        // No second thread to be had: this one takes every block.
    }
    take_body_blocks(work, mine);
    if (helper.joinable()) {
        helper.join();
    }
    if (work.error) {
        std::rethrow_exception(work.error);
    }
    return work.resume;
}

}  // namespace ppsbench::store::detail
