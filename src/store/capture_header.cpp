// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/store/capture_header.hpp"

#include <filesystem>
#include <fstream>
#include <string_view>
#include <system_error>

namespace ppsbench::store {

namespace {

// A meta line holds the system fingerprint: a few kB, far below this. A file of one endless
// line (a binary, a log) is not read into memory to find that out.
constexpr std::size_t max_header_line = 1 << 20;

bool bounded_line(std::streambuf& in, std::string& line) {
    line.clear();
    for (int c = in.sbumpc(); c != std::char_traits<char>::eof(); c = in.sbumpc()) {
        if (c == '\n') {
            return true;
        }
        if (line.size() == max_header_line) {
            return false;
        }
        line.push_back(static_cast<char>(c));
    }
    return !line.empty();
}

}  // namespace

std::optional<CaptureHeader> read_capture_header(const std::string& path) {
    // Only a regular file can be read twice: a pipe (/dev/stdin, a FIFO) would lose its header
    // to this peek before the real read.
    std::error_code kind;
    if (!std::filesystem::is_regular_file(path, kind)) {
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    std::string line;
    std::size_t header_bytes = 0;
    for (int n = 0; n < 64 && bounded_line(*in.rdbuf(), line); ++n) {
        header_bytes += line.size() + 1;
        std::string_view text(line);
        if (n == 0 && text.starts_with("\xEF\xBB\xBF")) {
            text.remove_prefix(3);
        }
        if (text.starts_with("# meta {")) {
            auto json = nlohmann::json::parse(text.substr(7), nullptr, false);
            if (!json.is_object()) {
                return std::nullopt;
            }
            std::error_code ec;
            const auto size = static_cast<std::size_t>(std::filesystem::file_size(path, ec));
            try {
                return CaptureHeader{run_meta_from_json(json),
                                     ec || size < header_bytes ? 0 : size - header_bytes};
            } catch (const std::exception&) {
                return std::nullopt;  // the full reader names what is wrong
            }
        }
        if (!text.starts_with("#")) {
            break;
        }
    }
    return std::nullopt;
}

}  // namespace ppsbench::store
