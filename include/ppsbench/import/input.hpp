// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The files `ppsbench import` reads, as users have them: plain, gzip-compressed (logrotate's
// `.gz`, detected by content, not by name) or `-` for standard input.

#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <streambuf>
#include <string>
#include <string_view>

namespace ppsbench::import {

// Bytes after the last gzip member that are not another member, such as a plain log appended to
// a .gz. gzip -d warns about them ("trailing garbage ignored") and so do we; they are not read.
// Zeros alone are padding, which gzip -d ignores silently, and so do we.
struct TrailingData {
    std::uint64_t at_byte = 0;  // offset in the file of the first such byte
    std::uint64_t bytes = 0;
    std::size_t line = 0;  // the text's line after the last one delivered
    std::string to_string() const;
};

// An open input. stream() yields the decompressed text; head() is its first bytes (up to
// head_size), already read so that the format can be recognised before parsing starts, and
// still delivered by stream(). A read error or a corrupt/truncated gzip stream throws
// core::InputError naming the file.
class Input {
  public:
    static constexpr std::size_t head_size = 64 * 1024;

    // `path` "-" reads standard input. Throws core::InputError naming the path and the fix.
    explicit Input(std::string path);
    ~Input();
    Input(const Input&) = delete;
    Input& operator=(const Input&) = delete;

    const std::string& name() const { return name_; }
    std::string_view head() const;
    std::istream& stream() { return stream_; }
    // Set once stream() has reached the end of a .gz that has trailing data.
    const std::optional<TrailingData>& trailing_data() const;

  private:
    class Buffer;
    std::string name_;
    std::unique_ptr<Buffer> buffer_;
    std::istream stream_;
};

}  // namespace ppsbench::import
