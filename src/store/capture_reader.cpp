#include "ppsbench/store/capture_reader.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <charconv>

#include "ppsbench/core/error.hpp"

namespace ppsbench::store {

namespace {

// Parses line by line, keeping only what it needs between calls, so the reader can feed it
// blocks of a file of any size.
class Parser {
  public:
    explicit Parser(CaptureFile& file) : file_(file) {}

    void line(std::string_view text) {
        ++line_number_;
        if (!text.empty() && text.back() == '\r') {
            text.remove_suffix(1);  // a file that went through a Windows editor
        }
        if (line_number_ == 1) {
            if (text != magic_line) {
                fail(
                    fmt::format("not a ppsbench capture file (the first line should be '{}'); "
                                "logs from other tools go through 'ppsbench import'",
                                magic_line));
            }
            return;
        }
        if (!text.empty() && text.front() == '#') {
            comment(text);
            return;
        }
        if (!header_seen_) {
            columns(text);
            if (!meta_seen_) {
                fail("the '# meta {...}' line is missing before the column header");
            }
            header_seen_ = true;
            return;
        }
        if (text.empty()) {
            return;
        }
        file_.pulses.push_back(pulse(text));
    }

    void finish(std::string_view torn_tail) {
        if (!torn_tail.empty()) {
            file_.warnings.push_back(fmt::format(
                "{}:{}: the last line is incomplete (the run was cut off while writing it) and "
                "was ignored",
                file_.path, line_number_ + 1));
        }
        if (!header_seen_) {
            throw core::InputError(fmt::format(
                "{}: the file ends inside its header, so it holds no pulses; capture again",
                file_.path));
        }
    }

  private:
    [[noreturn]] void fail(std::string_view why) const {
        throw core::InputError(fmt::format("{}:{}: {}", file_.path, line_number_, why));
    }

    void comment(std::string_view text) {
        text.remove_prefix(1);
        while (!text.empty() && text.front() == ' ') {
            text.remove_prefix(1);
        }
        const auto space = text.find(' ');
        const std::string_view tag = text.substr(0, space);
        const std::string_view body =
            space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
        if (tag.empty() || body.empty() || body.front() != '{') {
            return;  // a free-form comment someone added: allowed, ignored
        }
        auto parsed = nlohmann::json::parse(body, nullptr, false);
        if (parsed.is_discarded() || !parsed.is_object()) {
            fail(fmt::format("the '# {}' line does not hold a valid JSON object", tag));
        }
        if (tag == "meta") {
            if (meta_seen_) {
                fail("a second '# meta' line; a capture file holds one run");
            }
            meta_seen_ = true;
            file_.meta = std::move(parsed);
            return;
        }
        file_.notes.push_back(Note{std::string(tag), std::move(parsed), file_.pulses.size()});
    }

    // The fixed columns, then optional extra integer columns this reader keeps by name.
    void columns(std::string_view text) {
        if (!text.starts_with(column_header) ||
            (text.size() > column_header.size() && text[column_header.size()] != ',')) {
            fail(fmt::format("expected the column header '{}'", column_header));
        }
        text.remove_prefix(column_header.size());
        while (!text.empty()) {
            text.remove_prefix(1);  // the comma
            const auto comma = text.find(',');
            const std::string_view name = text.substr(0, comma);
            if (name.empty() || file_.extra_columns.size() == max_extra_columns) {
                fail(fmt::format("expected '{}' and at most {} named extra columns", column_header,
                                 max_extra_columns));
            }
            file_.extra_columns.emplace_back(name);
            text.remove_prefix(comma == std::string_view::npos ? text.size() : comma);
        }
    }

    // Extra column values after the timestamp: ",V1,V2..." exactly one per declared column.
    void extras(const char* pos, const char* end) const {
        for (const auto& name : file_.extra_columns) {
            std::int64_t value = 0;
            if (pos == end || *pos != ',') {
                fail(fmt::format("missing the value of column '{}'", name));
            }
            auto [after, ec] = std::from_chars(pos + 1, end, value);
            if (ec != std::errc{}) {
                fail(fmt::format("column '{}' is not an integer", name));
            }
            file_.extra_values.push_back(value);
            pos = after;
        }
        if (pos != end) {
            fail("more values than the column header declares");
        }
    }

    core::Pulse pulse(std::string_view text) const {
        core::Pulse p;
        const char* pos = text.data();
        const char* end = text.data() + text.size();
        auto [after_seq, seq_ec] = std::from_chars(pos, end, p.sequence);
        if (seq_ec != std::errc{} || after_seq == end || *after_seq != ',') {
            fail("expected 'sequence,edge,timestamp_ns' with an unsigned integer sequence");
        }
        pos = after_seq + 1;
        const auto comma = std::string_view(pos, static_cast<std::size_t>(end - pos)).find(',');
        if (comma == std::string_view::npos) {
            fail("expected 'sequence,edge,timestamp_ns': missing the timestamp");
        }
        const auto edge = core::parse_edge(std::string_view(pos, comma));
        if (!edge) {
            fail(fmt::format("edge '{}' is neither 'assert' nor 'clear'",
                             std::string_view(pos, comma)));
        }
        p.edge = *edge;
        pos += comma + 1;
        auto [after_ts, ts_ec] = std::from_chars(pos, end, p.timestamp_ns);
        if (ts_ec != std::errc{} || (after_ts != end && file_.extra_columns.empty())) {
            fail("the timestamp is not an integer number of nanoseconds");
        }
        extras(after_ts, end);
        return p;
    }

    CaptureFile& file_;
    std::size_t line_number_ = 0;
    bool meta_seen_ = false;
    bool header_seen_ = false;
};

// Splits `text` into lines for the parser; returns the unterminated tail.
std::string_view feed_lines(Parser& parser, std::string_view text) {
    std::size_t start = 0;
    for (;;) {
        const auto newline = text.find('\n', start);
        if (newline == std::string_view::npos) {
            return text.substr(start);
        }
        parser.line(text.substr(start, newline - start));
        start = newline + 1;
    }
}

struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0) {
            ::close(fd);
        }
    }
};

}  // namespace

CaptureFile parse_capture_text(std::string_view text, const std::string& path) {
    CaptureFile file;
    file.path = path;
    Parser parser(file);
    parser.finish(feed_lines(parser, text));
    return file;
}

CaptureFile read_capture_file(const std::string& path) {
    CaptureFile file;
    file.path = path;
    Fd in{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (in.fd < 0) {
        const int err = errno;
        throw core::InputError(fmt::format(
            "{}: cannot open: {}{}", path, core::errno_message(err),
            err == ENOENT ? "; check the path (capture files come from 'ppsbench run -o')" : ""));
    }
    struct stat st {};
    if (::fstat(in.fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            throw core::InputError(fmt::format("{}: is a directory; name a capture file", path));
        }
        // ~35 bytes a line: reserving up front avoids the vector's doubling peaks.
        if (S_ISREG(st.st_mode) && st.st_size > 0) {
            file.pulses.reserve(static_cast<std::size_t>(st.st_size) / 32);
        }
    }
    Parser parser(file);
    constexpr std::size_t block_size = 1 << 20;
    std::string block(block_size, '\0');
    std::size_t carried = 0;  // bytes of an unfinished line at the front of `block`
    for (;;) {
        if (carried == block.size()) {
            block.resize(block.size() * 2);  // a line longer than a block (a huge meta line)
        }
        const ssize_t n = ::read(in.fd, block.data() + carried, block.size() - carried);
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
        const std::string_view tail = feed_lines(parser, text);
        std::copy(tail.begin(), tail.end(), block.begin());
        carried = tail.size();
    }
    return file;
}

const nlohmann::json* CaptureFile::end_record() const {
    for (auto it = notes.rbegin(); it != notes.rend(); ++it) {
        if (it->tag == "end") {
            return &it->body;
        }
    }
    return nullptr;
}

bool CaptureFile::simulated() const {
    return meta.value("simulated", false);
}

std::string CaptureFile::label() const {
    return meta.value("label", std::string{});
}

std::optional<std::size_t> CaptureFile::extra_column(std::string_view name) const {
    for (std::size_t i = 0; i < extra_columns.size(); ++i) {
        if (extra_columns[i] == name) {
            return i;
        }
    }
    return std::nullopt;
}

}  // namespace ppsbench::store
