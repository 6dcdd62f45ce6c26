#include "ppsbench/store/capture_reader.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <limits>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/unique_fd.hpp"

namespace ppsbench::store {

namespace {

// Up to eight ASCII digits at once (little-endian SWAR, after Lemire's "fast float" parser): a
// 19-digit timestamp costs three multiply steps instead of a 19-step multiply-add chain.
// `digits`: eight bytes 0..9, the first digit in the lowest byte.
std::uint64_t eight_digit_value(std::uint64_t digits) {
    digits = (digits * 10) + (digits >> 8);
    return (((digits & 0x000000FF000000FF) * (100 + (1000000ULL << 32))) +
            (((digits >> 16) & 0x000000FF000000FF) * (1 + (10000ULL << 32)))) >>
           32;
}

constexpr std::uint64_t powers_of_ten[] = {1,      10,      100,      1000,     10000,
                                           100000, 1000000, 10000000, 100000000};

// The unsigned decimal at pos, if it has 1 to 19 digits (so it cannot overflow): its end, or
// nullptr for anything else (a sign, no digit, 20 digits or more), which the caller hands to
// the general parser to accept or reject by from_chars' rules.
const char* parse_digits(const char* pos, const char* end, std::uint64_t& out) {
    constexpr std::ptrdiff_t max_digits = 19;
    std::uint64_t value = 0;
    const char* p = pos;
    bool ended = false;  // a non-digit was seen
    if constexpr (std::endian::native == std::endian::little) {
        // Eight bytes at a time. A shorter run of digits (a sequence number, a timestamp's last
        // digits) ends at the first byte that is not a digit; shifted up, the bytes below it
        // read as leading zeros. No digit-by-digit loop while eight bytes remain.
        while (end - p >= 8) {
            std::uint64_t chunk = 0;
            std::memcpy(&chunk, p, sizeof chunk);
            const std::uint64_t digits = chunk ^ 0x3030303030303030;  // a digit byte is 0..9
            // The high bit of each byte that is not 0..9 (a carry can only disturb the bytes
            // above the first such byte, which do not count).
            const std::uint64_t other =
                ((digits + 0x7676767676767676) | digits) & 0x8080808080808080;
            const int length = other == 0 ? 8 : std::countr_zero(other) / 8;
            if (p - pos + length > max_digits) {
                return nullptr;
            }
            if (length > 0) {
                value = value * powers_of_ten[length] +
                        eight_digit_value(length == 8 ? digits : digits << (8 * (8 - length)));
                p += length;
            }
            if (length < 8) {
                ended = true;
                break;
            }
        }
    }
    while (!ended && p < end && static_cast<unsigned char>(*p - '0') < 10) {
        if (p - pos == max_digits) {
            return nullptr;
        }
        value = value * 10 + static_cast<std::uint64_t>(*p - '0');
        ++p;
    }
    if (p == pos) {
        return nullptr;
    }
    out = value;
    return p;
}

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
            // A UTF-8 byte order mark, as some Windows editors and spreadsheets save it.
            if (text.starts_with("\xEF\xBB\xBF")) {
                text.remove_prefix(3);
            }
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

    // Splits `text` into lines and parses them; returns the unterminated tail. A well-formed
    // pulse line (nearly every line of a capture) is parsed where it lies, in one left-to-right
    // scan (files with extra columns take the general path); anything else, including every
    // malformed line, goes through line(), which finds the fault and names it.
    std::string_view feed(std::string_view text) {
        const char* pos = text.data();
        const char* const end = pos + text.size();
        while (pos < end) {
            if (header_seen_ && file_.extra_columns.empty() && *pos >= '0' && *pos <= '9') {
                if (const char* next = pulse_line(pos, end)) {
                    pos = next;
                    continue;
                }
            }
            const auto* newline = static_cast<const char*>(
                std::memchr(pos, '\n', static_cast<std::size_t>(end - pos)));
            if (newline == nullptr) {
                break;
            }
            line(std::string_view(pos, static_cast<std::size_t>(newline - pos)));
            pos = newline + 1;
        }
        return {pos, static_cast<std::size_t>(end - pos)};
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
            file_.run_meta = run_meta_from_json(file_.meta);
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

    // `sequence,edge,timestamp\n` (or `\r\n`) at pos: the pulse is stored and the next line's
    // start returned. nullptr, with nothing stored, for anything else (line() then decides).
    const char* pulse_line(const char* pos, const char* end) {
        core::Pulse p;
        const char* after_seq = parse_digits(pos, end, p.sequence);
        if (after_seq == nullptr || after_seq == end || *after_seq != ',') {
            return nullptr;
        }
        const char* edge = after_seq + 1;
        constexpr std::string_view assert_text = "assert,";
        constexpr std::string_view clear_text = "clear,";
        const std::string_view rest(edge, static_cast<std::size_t>(end - edge));
        if (rest.starts_with(assert_text)) {
            p.edge = core::Edge::assert_edge;
            edge += assert_text.size();
        } else if (rest.starts_with(clear_text)) {
            p.edge = core::Edge::clear_edge;
            edge += clear_text.size();
        } else {
            return nullptr;
        }
        std::uint64_t timestamp = 0;
        const char* after_ts = parse_digits(edge, end, timestamp);
        if (after_ts == nullptr || after_ts == end ||
            timestamp > static_cast<std::uint64_t>(core::max_timestamp_ns)) {
            return nullptr;  // negative, or out of range: line() says which
        }
        p.timestamp_ns = static_cast<std::int64_t>(timestamp);
        if (*after_ts == '\r' && after_ts + 1 != end) {
            ++after_ts;
        }
        if (*after_ts != '\n') {
            return nullptr;
        }
        ++line_number_;
        file_.pulses.push_back(p);
        return after_ts + 1;
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
        if (ts_ec == std::errc::result_out_of_range ||
            (ts_ec == std::errc{} &&
             (p.timestamp_ns < 0 || p.timestamp_ns > core::max_timestamp_ns))) {
            fail(
                fmt::format("the timestamp is outside 0 … {} ns (1970 … 2116), which no PPS clock "
                            "gives; the line is damaged",
                            core::max_timestamp_ns));
        }
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

}  // namespace

CaptureFile parse_capture_text(std::string_view text, const std::string& path) {
    CaptureFile file;
    file.path = path;
    Parser parser(file);
    parser.finish(parser.feed(text));
    return file;
}

CaptureFile read_capture_file(const std::string& path) {
    CaptureFile file;
    file.path = path;
    const core::UniqueFd in(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!in.valid()) {
        const int err = errno;
        throw core::InputError(fmt::format(
            "{}: cannot open: {}{}", path, core::errno_message(err),
            err == ENOENT ? "; check the path (capture files come from 'ppsbench run -o')" : ""));
    }
    struct stat st {};
    if (::fstat(in.get(), &st) == 0) {
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
        const ssize_t n = ::read(in.get(), block.data() + carried, block.size() - carried);
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

void CaptureFile::set_meta(RunMeta typed) {
    meta = to_json(typed);
    run_meta = std::move(typed);
}

std::optional<EndRecord> CaptureFile::end() const {
    const nlohmann::json* record = end_record();
    if (record == nullptr) {
        return std::nullopt;
    }
    return end_record_from_json(*record);
}

bool CaptureFile::simulated() const {
    return run_meta.simulated;
}

std::string CaptureFile::label() const {
    return run_meta.label;
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
