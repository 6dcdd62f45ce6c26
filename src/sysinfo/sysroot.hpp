// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Reads files of a (possibly fake) root filesystem. Every path is given as it would be on the
// live system ("/proc/interrupts") and resolved under the root, so tests can point the whole
// fingerprint at a fixture tree. Reads never throw: a missing or unreadable file is "nothing".

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ppsbench::sysinfo::detail {

class SysRoot {
  public:
    explicit SysRoot(std::filesystem::path root);

    // True when the root is the running system's own, so running its programs makes sense.
    bool is_live() const { return live_; }
    std::filesystem::path resolve(std::string_view absolute) const;
    bool exists(std::string_view absolute) const;
    // Whole file (procfs files report size 0, so this reads to EOF), capped at max_bytes.
    std::optional<std::string> read(std::string_view absolute,
                                    std::size_t max_bytes = 1U << 20) const;
    // First line without the trailing newline and surrounding blanks.
    std::optional<std::string> read_line(std::string_view absolute) const;
    // Calls `line` for each line until it returns false; false if the file cannot be opened.
    bool for_each_line(std::string_view absolute,
                       const std::function<bool(std::string_view)>& line) const;
    // Entry names of a directory, sorted; empty when it cannot be listed.
    std::vector<std::string> list(std::string_view absolute) const;

  private:
    std::filesystem::path root_;
    bool live_;
};

}  // namespace ppsbench::sysinfo::detail
