// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Capture files made from others for metamorphic tests: the same pulses at another time, or
// under other names.
#include <cctype>
#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace ppsbench::testing {

// A copy of the capture file `from` at `to`, every pulse's timestamp moved by `shift_ns`, and in
// every line each `renames` first replaced by its second (a two-path run's file names its peer).
inline void shifted_capture_copy(
    const std::string& from, const std::string& to, std::int64_t shift_ns,
    const std::vector<std::pair<std::string, std::string>>& renames = {}) {
    std::ifstream in(from);
    std::ofstream out(to);
    for (std::string line; std::getline(in, line);) {
        const auto comma = line.rfind(',');
        if (!line.empty() && line[0] != '#' && comma != std::string::npos &&
            std::isdigit(static_cast<unsigned char>(line[comma + 1]))) {
            line = line.substr(0, comma + 1) +
                   std::to_string(std::stoll(line.substr(comma + 1)) + shift_ns);
        }
        for (const auto& [old_name, new_name] : renames) {
            for (std::size_t at; (at = line.find(old_name)) != std::string::npos;) {
                line.replace(at, old_name.size(), new_name);
            }
        }
        out << line << '\n';
    }
}

}  // namespace ppsbench::testing
